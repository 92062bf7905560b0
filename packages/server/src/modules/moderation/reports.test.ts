import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  authSessions,
  files,
  messages,
  moderationLog,
  playlists,
  reports,
  users,
} from '../../db/schema/index.ts';
import { authHeader, createSignedInUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createFile, createPlaylist } from '../../test/library-factories.ts';

const { app, clock } = await createTestApp();
const db = app.ctx.db;

type Signed = TestUser & { token: string };
type Req = { method: 'GET' | 'POST'; url: string; payload?: object; token?: string };
const call = ({ method, url, payload, token }: Req) =>
  app.inject({ method, url, payload, headers: token ? authHeader(token) : {} });
const report = (token: string | undefined, payload: object) =>
  call({ method: 'POST', url: '/api/reports', payload, token });
const act = (token: string | undefined, id: number, payload: object) =>
  call({ method: 'POST', url: `/api/moderation/reports/${id}/actions`, payload, token });
const queue = (token: string | undefined, query = '') =>
  call({ method: 'GET', url: `/api/moderation/reports${query}`, token });

let admin: Signed;
let mod: Signed;
let otherMod: Signed;
let reporter: Signed;
let troll: Signed;

beforeAll(async () => {
  admin = await createSignedInUser(app, { username: 'siteowner', roles: ['Administrator'] });
  mod = await createSignedInUser(app, { username: 'modmaria', roles: ['Moderator'] });
  otherMod = await createSignedInUser(app, { username: 'modmark', roles: ['Moderator'] });
  reporter = await createSignedInUser(app, { username: 'reporter' });
  troll = await createSignedInUser(app, { username: 'troll' });
});

describe('POST /api/reports', () => {
  it('files a report of a visible file, naming its uploader; stored as open', async () => {
    const file = await createFile(db, { name: 'Harmful track', authorId: troll.id });
    const res = await report(reporter.token, {
      subjectType: 'file',
      subjectId: file.id,
      reason: '  Stolen audio  ',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await db.select().from(reports).where(eq(reports.id, res.json().id));
    expect(row).toMatchObject({
      reporterId: reporter.id,
      subjectType: 'file',
      subjectId: file.id,
      reportedUserId: troll.id,
      reason: 'Stolen audio',
      resolution: null,
    });
  });

  it('401 anonymous; 400 naming subjectType, subjectId and reason; 404 for what the reporter cannot see', async () => {
    expect(
      (await report(undefined, { subjectType: 'user', subjectId: troll.id, reason: 'x' })).statusCode,
    ).toBe(401);
    const badType = await report(reporter.token, { subjectType: 'thread', subjectId: 1, reason: 'x' });
    expect(badType.statusCode).toBe(400);
    expect(badType.json().error).toContain('subjectType');
    const badId = await report(reporter.token, { subjectType: 'user', subjectId: -3, reason: 'x' });
    expect(badId.json().error).toContain('subjectId');
    const empty = await report(reporter.token, { subjectType: 'user', subjectId: troll.id, reason: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toContain('reason');
    const long = await report(reporter.token, {
      subjectType: 'user',
      subjectId: troll.id,
      reason: 'x'.repeat(2001),
    });
    expect(long.json().error).toContain('reason');
    const privateFile = await createFile(db, { authorId: troll.id, isPublic: false });
    const hidden = await report(reporter.token, {
      subjectType: 'file',
      subjectId: privateFile.id,
      reason: 'x',
    });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().error).toBe('File not found.');
    const privateList = await createPlaylist(db, { creatorId: troll.id, isPublic: false });
    const hiddenList = await report(reporter.token, {
      subjectType: 'playlist',
      subjectId: privateList.id,
      reason: 'x',
    });
    expect(hiddenList.json().error).toBe('Playlist not found.');
    const nobody = await report(reporter.token, { subjectType: 'user', subjectId: 999_999, reason: 'x' });
    expect(nobody.json().error).toBe('User not found.');
    const self = await report(reporter.token, { subjectType: 'user', subjectId: reporter.id, reason: 'x' });
    expect(self.statusCode).toBe(400);
    expect(self.json().error).toContain('subjectId');
  });
});

describe('the moderation queue', () => {
  it('401 anonymous, 403 for a member; moderators and administrators see open reports with their subject', async () => {
    const list = await createPlaylist(db, { creatorId: troll.id, isPublic: true, name: 'Bad list' });
    const filed = await report(reporter.token, {
      subjectType: 'playlist',
      subjectId: list.id,
      reason: 'Spam',
    });
    expect((await queue(undefined)).statusCode).toBe(401);
    expect((await queue(reporter.token)).statusCode).toBe(403);
    expect((await queue(admin.token)).statusCode).toBe(200);
    const res = await queue(mod.token, '?pageSize=50');
    expect(res.statusCode).toBe(200);
    const found = res.json().reports.find((r: { id: number }) => r.id === filed.json().id);
    expect(found).toEqual({
      id: filed.json().id,
      subjectType: 'playlist',
      subjectId: list.id,
      reason: 'Spam',
      createdAt: expect.any(String),
      reporter: { id: reporter.id, username: 'reporter' },
      reportedUser: { id: troll.id, username: 'troll', suspended: false },
      subject: { exists: true, title: 'Bad list', text: '', path: `/playlist/${list.uuid}` },
      messages: [],
      resolution: null,
      resolvedBy: null,
      resolvedAt: null,
    });
    expect((await queue(mod.token, '?status=pending')).json().error).toContain('status');
  });

  it('a thread report carries the messages up to it; remove takes one message away, logged', async () => {
    const thread = await call({
      method: 'POST',
      url: '/api/messages/threads',
      payload: { name: null, userIds: String(troll.id) },
      token: reporter.token,
    });
    const threadId = thread.json().id;
    for (const [token, message] of [
      [reporter.token, 'hello'],
      [troll.token, 'something vile'],
    ] as const) {
      const sent = await call({
        method: 'POST',
        url: '/api/messages',
        payload: { threadId, message },
        token,
      });
      expect(sent.statusCode, sent.body).toBe(200);
    }
    const blocked = await call({
      method: 'POST',
      url: '/api/user/block',
      payload: { threadId, report: true, reportMessage: 'Abuse' },
      token: reporter.token,
    });
    const reportId = blocked.json().reportId;
    const open = (await queue(mod.token, '?pageSize=50'))
      .json()
      .reports.find((r: { id: number }) => r.id === reportId);
    expect(open.subjectType).toBe('thread');
    expect(
      open.messages.map((m: { user: { username: string }; message: string }) => [m.user.username, m.message]),
    ).toEqual([
      ['reporter', 'hello'],
      ['troll', 'something vile'],
    ]);
    const vile = open.messages[1].id;
    const missing = await act(mod.token, reportId, { action: 'remove' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toContain('messageId');
    const done = await act(mod.token, reportId, { action: 'remove', messageId: vile, note: 'Abusive' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().report).toMatchObject({
      resolution: 'remove',
      resolvedBy: { id: mod.id, username: 'modmaria' },
      messages: [
        { message: 'hello', removed: false },
        { message: '', removed: true },
      ],
    });
    const [stored] = await db.select().from(messages).where(eq(messages.id, vile));
    expect(stored.removedAt).not.toBeNull();
    const [logged] = await db.select().from(moderationLog).where(eq(moderationLog.reportId, reportId));
    expect(logged).toMatchObject({
      moderatorId: mod.id,
      action: 'remove',
      subjectType: 'thread',
      subjectId: threadId,
      note: 'Abusive',
    });
    const again = await act(otherMod.token, reportId, { action: 'dismiss' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('This report is already closed.');
    const closed = (await queue(mod.token, '?status=closed&pageSize=50')).json().reports;
    expect(closed.some((r: { id: number }) => r.id === reportId)).toBe(true);
  });

  it("times reports by the app's clock, like messages, so a moved clock keeps a thread's messages in the report", async () => {
    const saved = clock.now().toISOString();
    // Ahead of the database's own time, as on an e2e server whose clock a journey moved.
    clock.set(new Date(Date.now() + 365 * 24 * 60 * 60 * 1000).toISOString());
    try {
      const a = await createSignedInUser(app);
      const b = await createSignedInUser(app);
      const m = await createSignedInUser(app, { roles: ['Moderator'] });
      const threadId = (
        await call({
          method: 'POST',
          url: '/api/messages/threads',
          payload: { name: null, userIds: String(b.id) },
          token: a.token,
        })
      ).json().id;
      await call({
        method: 'POST',
        url: '/api/messages',
        payload: { threadId, message: 'later words' },
        token: b.token,
      });
      const reportId = (
        await call({
          method: 'POST',
          url: '/api/user/block',
          payload: { threadId, report: true },
          token: a.token,
        })
      ).json().reportId;
      const found = (await queue(m.token, '?pageSize=50'))
        .json()
        .reports.find((r: { id: number }) => r.id === reportId);
      expect(found.messages.map((x: { message: string }) => x.message)).toEqual(['later words']);
    } finally {
      clock.set(saved);
    }
  });

  it('remove deletes a reported file and clears a reported profile; dismiss leaves them', async () => {
    const file = await createFile(db, { authorId: troll.id, name: 'To go' });
    const fileReport = (
      await report(reporter.token, { subjectType: 'file', subjectId: file.id, reason: 'x' })
    ).json().id;
    expect((await act(mod.token, fileReport, { action: 'remove' })).statusCode).toBe(200);
    expect(await db.select().from(files).where(eq(files.id, file.id))).toEqual([]);

    await db.update(users).set({ biography: 'vile bio' }).where(eq(users.id, troll.id));
    const profileReport = (
      await report(reporter.token, { subjectType: 'user', subjectId: troll.id, reason: 'x' })
    ).json().id;
    const dismissReport = (
      await report(reporter.token, { subjectType: 'user', subjectId: troll.id, reason: 'y' })
    ).json().id;
    expect((await act(mod.token, dismissReport, { action: 'dismiss' })).json().report.resolution).toBe(
      'dismiss',
    );
    expect((await db.select().from(users).where(eq(users.id, troll.id)))[0].biography).toBe('vile bio');
    expect((await act(mod.token, profileReport, { action: 'remove' })).statusCode).toBe(200);
    expect((await db.select().from(users).where(eq(users.id, troll.id)))[0]).toMatchObject({
      biography: '',
      imageUrl: null,
    });

    const list = await createPlaylist(db, { creatorId: troll.id, isPublic: true });
    const listReport = (
      await report(reporter.token, { subjectType: 'playlist', subjectId: list.id, reason: 'x' })
    ).json().id;
    expect((await act(admin.token, listReport, { action: 'remove' })).statusCode).toBe(200);
    expect(await db.select().from(playlists).where(eq(playlists.id, list.id))).toEqual([]);
  });

  it('401, 403, 404 and 400 on actions; nobody acts on a report of a moderator they may not suspend', async () => {
    const r = (
      await report(reporter.token, { subjectType: 'user', subjectId: otherMod.id, reason: 'x' })
    ).json().id;
    expect((await act(undefined, r, { action: 'dismiss' })).statusCode).toBe(401);
    expect((await act(reporter.token, r, { action: 'dismiss' })).statusCode).toBe(403);
    expect((await act(mod.token, 999_999, { action: 'dismiss' })).json().error).toBe('Report not found.');
    const bad = await act(mod.token, r, { action: 'ban' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('action');
    const refused = await act(mod.token, r, { action: 'suspend' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('Only an administrator can suspend a moderator.');
    const ownerReport = (
      await report(reporter.token, { subjectType: 'user', subjectId: admin.id, reason: 'x' })
    ).json().id;
    expect((await act(admin.token, ownerReport, { action: 'suspend' })).json().error).toBe(
      'You cannot suspend yourself.',
    );
    expect((await act(mod.token, ownerReport, { action: 'suspend' })).json().error).toBe(
      'An administrator cannot be suspended.',
    );
    // Refused actions leave the report open.
    expect((await db.select().from(reports).where(eq(reports.id, r)))[0].resolution).toBeNull();
  });

  it('suspend ends the reported user’s sessions and refuses their sign-in', async () => {
    const victim = await createSignedInUser(app, { username: 'spammer' });
    const r = (
      await report(reporter.token, { subjectType: 'user', subjectId: victim.id, reason: 'spam' })
    ).json().id;
    const res = await act(mod.token, r, { action: 'suspend' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().report.reportedUser).toEqual({ id: victim.id, username: 'spammer', suspended: true });
    expect(await db.select().from(authSessions).where(eq(authSessions.userId, victim.id))).toEqual([]);
    const me = await call({ method: 'GET', url: '/api/user', token: victim.token });
    expect(me.json().user).toBeNull();
    const login = await call({
      method: 'POST',
      url: '/api/token',
      payload: { user: 'spammer', password: victim.password, timezone: 'UTC' },
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().error).toBe('This account is suspended.');
  });

  it('GET /api/moderation/log lists actions newest first with who and when; 401/403 for others', async () => {
    expect((await call({ method: 'GET', url: '/api/moderation/log' })).statusCode).toBe(401);
    expect(
      (await call({ method: 'GET', url: '/api/moderation/log', token: reporter.token })).statusCode,
    ).toBe(403);
    const res = await call({ method: 'GET', url: '/api/moderation/log?pageSize=2', token: admin.token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.entries).toHaveLength(2);
    expect(body.totalItems).toBeGreaterThanOrEqual(5);
    expect(body.entries[0]).toMatchObject({
      action: 'suspend',
      moderator: { id: mod.id, username: 'modmaria' },
      subjectType: 'user',
    });
    expect(body.entries[0].id).toBeGreaterThan(body.entries[1].id);
  });
});

const limited = await createTestApp({ rateLimit: true });

describe('report limit', () => {
  it('answers 429 with Retry-After after 10 reports an hour from one user', async () => {
    const user = await createSignedInUser(limited.app);
    const target = await createSignedInUser(limited.app);
    const send = () =>
      limited.app.inject({
        method: 'POST',
        url: '/api/reports',
        payload: { subjectType: 'user', subjectId: target.id, reason: 'x' },
        headers: authHeader(user.token),
      });
    for (let i = 0; i < 10; i++) expect((await send()).statusCode).toBe(200);
    const over = await send();
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });
});
