import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { createAdministrator, setAccountPassword } from '../modules/auth/auth.service.ts';
import { setRoleByUsername } from '../modules/users/users.service.ts';
import { authHeader, createUser, loginAs } from '../test/factories.ts';
import { createTestApp, embeddedDatabaseOnly } from '../test/harness.ts';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../..');

const { app } = await createTestApp();

function login(target: typeof app, user: string, password: string) {
  return target.inject({ method: 'POST', url: '/api/token', payload: { user, password } });
}

describe('createAdministrator (what npm run admin calls)', () => {
  it('makes the first account the site owner with a confirmed e-mail', async () => {
    const id = await createAdministrator(app.ctx.db, {
      username: 'TheBoss',
      email: 'boss@example.test',
      password: 'boss password',
    });
    expect(id).toBe(1);
    const res = await login(app, 'theboss', 'boss password');
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      id: 1,
      username: 'TheBoss',
      emailVerified: true,
      roles: [{ name: 'Administrator' }],
    });
  });

  it('makes later administrators too', async () => {
    await createUser(app.ctx.db);
    const id = await createAdministrator(app.ctx.db, {
      username: 'deputy',
      email: 'deputy@example.test',
      password: 'deputy password',
    });
    const res = await login(app, 'deputy', 'deputy password');
    expect(res.json().user).toMatchObject({ id, roles: [{ name: 'Administrator' }] });
  });

  it('refuses a taken username or e-mail', async () => {
    await expect(
      createAdministrator(app.ctx.db, {
        username: 'THEBOSS',
        email: 'fresh@example.test',
        password: 'password 1',
      }),
    ).rejects.toThrow('The username or email you entered is already in use.');
  });
});

describe('createAdministrator after public sign-ups', async () => {
  const fresh = await createTestApp();

  it('still makes the site owner id 1, and later public sign-ups never take it', async () => {
    const signUp = (user: string) =>
      fresh.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { user, email: `${user}@example.test`, password: 'password 1' },
      });
    expect((await signUp('early_bird')).json().user).toMatchObject({ id: 2, roles: [] });
    const id = await createAdministrator(fresh.app.ctx.db, {
      username: 'RealOwner',
      email: 'owner@example.test',
      password: 'owner password',
    });
    expect(id).toBe(1);
    expect((await login(fresh.app, 'realowner', 'owner password')).json().user).toMatchObject({
      id: 1,
      emailVerified: true,
      roles: [{ name: 'Administrator' }],
    });
    expect((await signUp('late_bird')).json().user).toMatchObject({ id: 3, roles: [] });
  });
});

describe('setAccountPassword (npm run admin -- password)', () => {
  it('sets the new password and signs the account out everywhere', async () => {
    const user = await createUser(app.ctx.db, { username: 'LockedOut' });
    const token = await loginAs(app, user.username, user.password);
    expect(await setAccountPassword(app.ctx.db, 'lockedout', 'fresh password')).toBe(user.id);
    expect((await login(app, user.username, user.password)).statusCode).toBe(401);
    expect((await login(app, user.username, 'fresh password')).statusCode).toBe(200);
    const me = await app.inject({ method: 'GET', url: '/api/user', headers: authHeader(token) });
    expect(me.json()).toEqual({ user: null });
  });

  it('refuses an unknown username', async () => {
    await expect(setAccountPassword(app.ctx.db, 'ghost_user', 'password 1')).rejects.toThrow(
      'User not found.',
    );
  });
});

describe('setRoleByUsername (npm run admin -- role)', () => {
  it('gives and takes a role, idempotently, and the signed-in user has it on the next request', async () => {
    const user = await createUser(app.ctx.db, { username: 'NewCreator' });
    const token = await loginAs(app, user.username, user.password);
    const me = async () =>
      (await app.inject({ method: 'GET', url: '/api/user', headers: authHeader(token) })).json().user;

    const given = await setRoleByUsername(app.ctx.db, 'newcreator', 'Verified Creator', true);
    expect(given).toEqual({ id: user.id, username: 'NewCreator', roles: ['Verified Creator'] });
    expect(await setRoleByUsername(app.ctx.db, 'NEWCREATOR', 'Verified Creator', true)).toEqual(given);
    expect(await me()).toMatchObject({
      roles: [{ name: 'Verified Creator' }],
      permissions: ['UPLOAD_ALL_FILES', 'REQUEST_TRIGGERS'],
    });

    expect(await setRoleByUsername(app.ctx.db, 'NewCreator', 'Verified Creator', false)).toEqual({
      ...given,
      roles: [],
    });
    expect(await setRoleByUsername(app.ctx.db, 'NewCreator', 'Moderator', false)).toMatchObject({
      roles: [],
    });
    expect(await me()).toMatchObject({ roles: [], permissions: [] });
  });

  it('gives Administrator too, which the site cannot', async () => {
    await createUser(app.ctx.db, { username: 'Promoted' });
    expect(await setRoleByUsername(app.ctx.db, 'promoted', 'Administrator', true)).toMatchObject({
      roles: ['Administrator'],
    });
  });

  it('refuses an unknown username', async () => {
    await expect(setRoleByUsername(app.ctx.db, 'ghost_user', 'Moderator', true)).rejects.toThrow(
      'User not found.',
    );
  });
});

describe.skipIf(embeddedDatabaseOnly)('npm run admin (spawned, embedded database)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-admin-'));
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'test', LOG_LEVEL: 'silent' };
  const admin = (args: string[], extraEnv: Record<string, string> = {}) =>
    run(process.execPath, ['--import', 'tsx', path.join(here, 'admin.ts'), ...args], {
      cwd: repoRoot,
      env: { ...env, ...extraEnv },
    });

  it('creates accounts the server then logs in, with a given or a generated password', async () => {
    const first = await admin(['create', 'owner', 'owner@example.test'], {
      ADMIN_PASSWORD: 'owner password',
    });
    expect(first.stdout).toContain(
      'Created Administrator owner <owner@example.test> with id 1 (site owner).',
    );

    const second = await admin(['create', 'helper', 'helper@example.test']);
    const generated = /^Password: (\S+)$/m.exec(second.stdout)?.[1];
    expect(generated).toMatch(/^[\w-]{16}$/);

    const reset = await admin(['password', 'OWNER'], { ADMIN_PASSWORD: 'owner password 2' });
    expect(reset.stdout).toContain('Set a new password for OWNER (id 1) and signed it out everywhere.');

    await expect(admin(['create', 'x'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Usage: npm run admin -- create <username> <email>'),
    });

    const given = await admin(['role', 'helper', 'verified', 'CREATOR']);
    expect(given.stdout).toContain(
      'Gave Verified Creator to helper (id 2). Roles now: Administrator, Verified Creator.',
    );
    const taken = await admin(['role', 'HELPER', '--revoke', 'Administrator']);
    expect(taken.stdout).toContain('Took Administrator from helper (id 2). Roles now: Verified Creator.');
    await expect(admin(['role', 'helper'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('npm run admin -- role <username> <role> [--revoke]'),
    });
    await expect(admin(['role', 'helper', 'Wizard'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        'Unknown role "Wizard". Roles: Administrator, Moderator, Verified Creator, Music Creator, Contributor.',
      ),
    });
    await expect(admin(['role', 'ghost', 'Moderator'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('User not found.'),
    });

    // Nothing stored yet to analyse (analyse-library.test.ts covers files with audio).
    const analysed = await admin(['analyse']);
    expect(analysed.stdout).toContain('analysed 0 files, measured 0, 0 failed');
    await expect(admin(['analyse', 'extra'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('npm run admin -- analyse'),
    });

    const server = await buildApp(
      loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false' }),
      { logger: false },
    );
    try {
      const owner = await login(server, 'owner', 'owner password 2');
      expect(owner.statusCode).toBe(200);
      expect(owner.json().user).toMatchObject({ id: 1, roles: [{ name: 'Administrator' }] });
      const helper = await login(server, 'helper@example.test', generated ?? '');
      expect(helper.statusCode).toBe(200);
      // An administrator made by `create`, then made a creator and no longer an administrator by `role`.
      expect(helper.json().user).toMatchObject({
        roles: [{ name: 'Verified Creator' }],
        permissions: ['UPLOAD_ALL_FILES', 'REQUEST_TRIGGERS'],
      });
    } finally {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.skipIf(embeddedDatabaseOnly)('npm run admin -- backup / restore (embedded database)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-backup-'));
  const backupFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-archive-')), 'site.tgz');
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'test', LOG_LEVEL: 'silent' };
  const admin = (args: string[], extraEnv: Record<string, string> = {}) =>
    run(process.execPath, ['--import', 'tsx', path.join(here, 'admin.ts'), ...args], {
      cwd: repoRoot,
      env: { ...env, ...extraEnv },
    });
  const mediaFile = path.join(dataDir, 'media', 'audio', 'kept.wav');
  const mediaBytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
  const usernames = async () => {
    const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    try {
      const rows = await database.db.select({ username: users.username }).from(users).orderBy(users.id);
      return rows.map((r) => r.username);
    } finally {
      await database.close();
    }
  };

  it('puts the database and the media folder in one file, and brings both back after a wipe', async () => {
    await admin(['create', 'owner', 'owner@example.test'], { ADMIN_PASSWORD: 'owner password' });
    fs.mkdirSync(path.dirname(mediaFile), { recursive: true });
    fs.writeFileSync(mediaFile, mediaBytes);

    const made = await admin(['backup', backupFile]);
    expect(made.stdout).toContain(`Backed up the embedded database and 1 media files to ${backupFile}`);
    expect(fs.existsSync(`${backupFile}.partial`)).toBe(false);

    fs.rmSync(path.join(dataDir, 'db'), { recursive: true });
    fs.rmSync(path.join(dataDir, 'media'), { recursive: true });
    const restored = await admin(['restore', backupFile]);
    expect(restored.stdout).toContain(
      `Restored the embedded database and the media folder from ${backupFile}.`,
    );
    expect(await usernames()).toEqual(['owner']);
    expect(fs.readFileSync(mediaFile).equals(mediaBytes)).toBe(true);

    // Over data made since: that data is set aside, not lost.
    await admin(['create', 'later', 'later@example.test'], { ADMIN_PASSWORD: 'later password' });
    const again = await admin(['restore', backupFile]);
    const aside = /is in (\S+before-restore-\S+);/.exec(again.stdout)?.[1] ?? '';
    expect(fs.existsSync(path.join(aside, 'db', 'PG_VERSION'))).toBe(true);
    expect(await usernames()).toEqual(['owner']);
  }, 120_000);

  it('refuses while a server holds the embedded database', async () => {
    const held = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    try {
      for (const command of ['backup', 'restore']) {
        await expect(admin([command, backupFile])).rejects.toMatchObject({
          code: 1,
          stderr: expect.stringContaining('is in use by another Mesmer server'),
        });
      }
    } finally {
      await held.close();
    }
  }, 60_000);

  it('refuses on PostgreSQL, pointing to pg_dump, and refuses a file that is no backup', async () => {
    await expect(
      admin(['backup', backupFile], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/mesmer' }),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('Back PostgreSQL up with pg_dump') });
    const notBackup = path.join(dataDir, 'notes.txt');
    fs.writeFileSync(notBackup, 'hello');
    await expect(admin(['restore', notBackup])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('is not a Mesmer backup'),
    });
    expect(await usernames()).toEqual(['owner']);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(path.dirname(backupFile), { recursive: true, force: true });
  }, 60_000);
});
