/**
 * `npm run admin -- create <username> <email>`: creates an Administrator account; the
 * site owner (user id 1) when there is none yet, the only way one is made besides the demo seed.
 * `npm run admin -- password <username>`: sets a new password for an existing
 * account, e.g. the demo site owner, and signs it out everywhere.
 * `npm run admin -- role <username> <role> [--revoke]`: gives a user a role (any of ROLE_NAMES,
 * matched ignoring case; quote names with a space, or not), or takes it with --revoke. Effective
 * on the user's next request.
 * `npm run admin -- analyse [--sizes-only]`: computes the waveform, loudness and cue-editor peaks of
 * stored files lacking them, and measures the stored audio of files without a size (only that with
 * --sizes-only).
 * `npm run admin -- backup <file>` / `restore <file>`: the embedded database and the local media
 * folder into one archive and back (db/embedded-backup.ts), while no server runs on DATA_DIR. On
 * PostgreSQL they refuse and point to pg_dump.
 * The password comes from the ADMIN_PASSWORD variable, else a hidden prompt on a
 * terminal, else it is generated and printed. Opens the database the way the
 * server does, so stop a server that uses the embedded database first.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  email as emailSchema,
  password as passwordSchema,
  username as usernameSchema,
} from '@mesmer/shared/api/credentials';
import { ROLE_NAMES, type RoleName } from '@mesmer/shared/domain/permissions';
import type { z } from 'zod';
import { ConfigError, loadConfig } from '../config.ts';
import { DatabaseLockedError, type Db, openDatabase } from '../db/client.ts';
import { BackupError, backupEmbedded, restoreEmbedded } from '../db/embedded-backup.ts';
import { seedRoles } from '../db/seed/roles.ts';
import { createAdministrator, setAccountPassword } from '../modules/auth/auth.service.ts';
import { analyseStoredAudio } from '../modules/uploads/analyse-library.ts';
import { setRoleByUsername } from '../modules/users/users.service.ts';
import { AppError } from '../platform/errors.ts';

const USAGE = [
  'Usage: npm run admin -- create <username> <email>',
  '       npm run admin -- password <username>',
  '       npm run admin -- role <username> <role> [--revoke]',
  '       npm run admin -- analyse [--sizes-only]',
  '       npm run admin -- backup <file>',
  '       npm run admin -- restore <file>',
].join('\n');

class UsageError extends Error {}

function check<T>(schema: z.ZodType<T>, value: unknown, label: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UsageError(`${label}: ${parsed.error.issues[0].message}`);
  return parsed.data;
}

/** Reads a line from the terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stdout.write(question);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stdout.write('\n');
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') {
          finish();
          return resolve(value);
        }
        if (ch === '\u0003' || ch === '\u0004') {
          finish();
          return reject(new UsageError('Cancelled.'));
        }
        value = ch === '\u007f' || ch === '\b' ? value.slice(0, -1) : value + ch;
      }
    };
    stdin.on('data', onData);
  });
}

/** The password and whether it was generated (and so must be shown once). */
async function choosePassword(): Promise<{ password: string; generated: boolean }> {
  // A one-off input of this command, not server configuration, so it is not part of config.ts.
  const fromEnv = process.env.ADMIN_PASSWORD;
  if (fromEnv) return { password: check(passwordSchema, fromEnv, 'ADMIN_PASSWORD'), generated: false };
  if (process.stdin.isTTY) {
    const first = check(passwordSchema, await promptHidden('Password: '), 'Password');
    if ((await promptHidden('Repeat password: ')) !== first)
      throw new UsageError('The passwords do not match.');
    return { password: first, generated: false };
  }
  return { password: randomBytes(12).toString('base64url'), generated: true };
}

/** Opens the same database the server opens (see buildApp), runs `work`, closes it. */
async function withDatabase<T>(work: (db: Db) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'db'),
  });
  try {
    await seedRoles(database.db);
    return await work(database.db);
  } finally {
    await database.close();
  }
}

function showGenerated(password: string, generated: boolean) {
  if (generated) console.log(`Password: ${password}\nKeep it safe; it is not shown again.`);
}

async function create(args: string[]) {
  if (args.length !== 2) throw new UsageError(USAGE);
  const username = check(usernameSchema, args[0], 'Username');
  const email = check(emailSchema, args[1], 'E-mail');
  const { password, generated } = await choosePassword();
  const id = await withDatabase((db) => createAdministrator(db, { username, email, password }));
  console.log(
    `Created Administrator ${username} <${email}> with id ${id}${id === 1 ? ' (site owner)' : ''}.`,
  );
  showGenerated(password, generated);
}

async function changePassword(args: string[]) {
  if (args.length !== 1) throw new UsageError(USAGE);
  const { password, generated } = await choosePassword();
  const id = await withDatabase((db) => setAccountPassword(db, args[0], password));
  console.log(`Set a new password for ${args[0]} (id ${id}) and signed it out everywhere.`);
  showGenerated(password, generated);
}

/** A role name of ROLE_NAMES, whatever its case and spacing ("verified  creator"). */
function roleNamed(words: string[]): RoleName {
  const wanted = words.join(' ').trim().replace(/\s+/g, ' ').toLowerCase();
  const role = ROLE_NAMES.find((name) => name.toLowerCase() === wanted);
  if (!role) {
    throw new UsageError(`Unknown role "${words.join(' ')}". Roles: ${ROLE_NAMES.join(', ')}.`);
  }
  return role;
}

async function changeRole(args: string[]) {
  const revoke = args.includes('--revoke');
  const [username, ...roleWords] = args.filter((a) => a !== '--revoke');
  if (!username || roleWords.length === 0) throw new UsageError(USAGE);
  const role = roleNamed(roleWords);
  const user = await withDatabase((db) => setRoleByUsername(db, username, role, !revoke));
  const now = user.roles.length > 0 ? user.roles.join(', ') : 'none';
  console.log(
    `${revoke ? 'Took' : 'Gave'} ${role} ${revoke ? 'from' : 'to'} ${user.username} (id ${user.id}). Roles now: ${now}.`,
  );
}

/**
 * Waveform, loudness, peaks and audio size for every stored file still lacking them (files from before
 * uploads analysed them); `--sizes-only` measures the audio of files without a size and decodes nothing.
 * The server no longer measures at start (a storage stat per file, an S3 HEAD each).
 */
async function analyse(args: string[]) {
  if (args.length > 1 || (args.length === 1 && args[0] !== '--sizes-only')) throw new UsageError(USAGE);
  const config = loadConfig();
  const sizesOnly = args[0] === '--sizes-only';
  const { failed } = await withDatabase((db) => analyseStoredAudio({ db, config }, { sizesOnly }));
  if (failed.length > 0) process.exitCode = 1;
}

/** The embedded database's settings, or a refusal on PostgreSQL, which has its own tools. */
function embeddedConfig(args: string[]) {
  if (args.length !== 1) throw new UsageError(USAGE);
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new UsageError(
      'DATABASE_URL points at PostgreSQL: this command backs up the embedded database only. ' +
        'Back PostgreSQL up with pg_dump (pg_dump --format=custom --file=mesmer.dump "$DATABASE_URL", ' +
        'restored with pg_restore), and the media beside it (DATA_DIR/media, or the S3 bucket).',
    );
  }
  return { config, file: path.resolve(args[0]) };
}

async function backup(args: string[]) {
  const { config, file } = embeddedConfig(args);
  console.log(await backupEmbedded({ dataDir: config.dataDir, file, withMedia: !config.s3 }));
  if (config.s3) console.log(`The media is in the S3 bucket ${config.s3.bucket}: back it up there.`);
}

async function restore(args: string[]) {
  const { config, file } = embeddedConfig(args);
  console.log(await restoreEmbedded({ dataDir: config.dataDir, file }));
  // Opening it applies the migrations of this version to an older backup, and proves it opens.
  await withDatabase(async () => undefined);
}

async function main(argv: string[]) {
  const [command, ...args] = argv;
  if (command === 'create') return create(args);
  if (command === 'password') return changePassword(args);
  if (command === 'role') return changeRole(args);
  if (command === 'analyse') return analyse(args);
  if (command === 'backup') return backup(args);
  if (command === 'restore') return restore(args);
  throw new UsageError(USAGE);
}

main(process.argv.slice(2)).catch((err) => {
  const known =
    err instanceof UsageError ||
    err instanceof ConfigError ||
    err instanceof DatabaseLockedError ||
    err instanceof BackupError;
  if (known || err instanceof AppError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
