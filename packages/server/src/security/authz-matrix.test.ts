// The authorisation matrix: every route of the contract, called with a valid request by
// each kind of caller, against a real server and database, answers the status in its row. A route
// added to the contract without a row fails the first test. Resources belong to `owner`; `member`
// shares them where sharing exists (a thread, a friend request); `stranger` is any other user.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { RouteDefinition } from '@mesmer/shared/api/contract';
import { allRoutes } from '@mesmer/shared/api/routes';
import type { RoleName } from '@mesmer/shared/domain/permissions';
import { and, eq, or } from 'drizzle-orm';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, reports, uploads } from '../db/schema/index.ts';
import { SOCKET_LIMITS } from '../modules/messages/messages.realtime.ts';
import { createFormerMemberRepo } from '../platform/former-member.repo.ts';
import { createStorage } from '../platform/storage.ts';
import { authHeader, createUser, loginAs, type TestUser } from '../test/factories.ts';
import { startFakeLovense } from '../test/fakes/lovense.ts';
import { startFakePatreon } from '../test/fakes/patreon.ts';
import { createTestApp } from '../test/harness.ts';
import {
  createFile,
  createPlaylist,
  createSeries,
  createTier,
  createTrigger,
} from '../test/library-factories.ts';

const lovense = await startFakeLovense();
afterAll(() => lovense.close());
const patreon = await startFakePatreon();
afterAll(() => patreon.close());
const { app, config } = await createTestApp({
  lovense: { developerToken: lovense.developerToken, apiUrl: lovense.url },
  patreon: {
    clientId: patreon.clientId,
    clientSecret: patreon.clientSecret,
    webhookSecret: patreon.webhookSecret,
    baseUrl: patreon.url,
    redirectUrl: 'http://localhost:3000/patreon/oauth',
  },
});
const db = app.ctx.db;
const storage = createStorage(config);

const ACTORS = ['anonymous', 'member', 'stranger', 'owner', 'creator', 'moderator', 'admin'] as const;
type Actor = (typeof ACTORS)[number];
type SignedActor = Exclude<Actor, 'anonymous'>;

const ROLES: Record<SignedActor, RoleName[]> = {
  member: [],
  stranger: [],
  owner: ['Verified Creator'],
  creator: ['Verified Creator'],
  moderator: ['Moderator'],
  admin: ['Administrator'],
};
const users = {} as Record<SignedActor, TestUser & { token: string }>;
let siteOwner: TestUser;

async function signIn(actor: SignedActor) {
  users[actor].token = await loginAs(app, users[actor].username, users[actor].password);
}

beforeAll(async () => {
  siteOwner = await createUser(db, { username: 'siteowner', roles: ['Administrator'] });
  // Something for the playlist generator to pick.
  for (const fileType of [1, 2, 3]) await createFile(db, { authorId: siteOwner.id, fileType });
  for (const actor of Object.keys(ROLES) as SignedActor[]) {
    const user = await createUser(db, { username: `m_${actor}`, roles: ROLES[actor] });
    users[actor] = { ...user, token: '' };
    await signIn(actor);
  }
});

/** What one request is made of; the body is JSON unless `multipart` is given. */
interface Call {
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  body?: unknown;
  multipart?: { fields: Record<string, string>; file?: { field: string; name: string; bytes: Uint8Array } };
}

/** Resources made fresh for each call, on first use, owned by `owner`. */
function fixtures() {
  const once = <T>(make: () => Promise<T>) => {
    let made: Promise<T> | undefined;
    return () => (made ??= make());
  };
  const publicFile = once(() => createFile(db, { authorId: users.owner.id, name: 'Owner public' }));
  const privateFile = once(() =>
    createFile(db, { authorId: users.owner.id, name: 'Owner private', isPublic: false }),
  );
  const privatePlaylist = once(() =>
    createPlaylist(db, { creatorId: users.owner.id, name: 'Owner private list', isPublic: false }),
  );
  const thread = once(async () => {
    // A block made by an earlier call (POST /user/block) would stop the thread: start unblocked.
    await db
      .delete(blocks)
      .where(
        or(
          and(eq(blocks.blockerId, users.owner.id), eq(blocks.blockedId, users.member.id)),
          and(eq(blocks.blockerId, users.member.id), eq(blocks.blockedId, users.owner.id)),
        ),
      );
    const res = await app.inject({
      method: 'POST',
      url: '/api/messages/threads',
      headers: authHeader(users.owner.token),
      payload: { name: null, userIds: String(users.member.id) },
    });
    const threadId = res.json().id as number;
    const sent = await app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: authHeader(users.owner.token),
      payload: { threadId, message: 'between owner and member' },
    });
    return { threadId, messageId: sent.json().id as number };
  });
  const upload = once(async () => {
    // The client's handle (uuid) and the server's id, which names the stored audio.
    const uuid = randomUUID();
    const id = randomUUID();
    await storage.put(`audio/${id}.wav`, Buffer.from('RIFF fake wave bytes'));
    await db.insert(uploads).values({
      id,
      uuid,
      userId: users.owner.id,
      fileName: 'take.wav',
      totalChunks: 1,
      storageKey: `uploads/${id}`,
      // The id a finished multipart upload had (its parts are gone once completed).
      storageUploadId: uuid.replaceAll('-', ''),
      state: 'ready',
      audioType: 'wav',
      codec: 'PCM',
      duration: 61_000,
      size: 20,
      waveform: [0, 1],
      loudness: -23,
    });
    return uuid;
  });
  const plan = once(async () => {
    const day = await createPlaylist(db, { creatorId: siteOwner.id, isPublic: true });
    return createSeries(db, { creatorId: siteOwner.id, playlistIds: [day.id] });
  });
  const trigger = once(() =>
    createTrigger(db, { name: `matrix ${randomUUID().slice(0, 8)}`, creatorId: null }),
  );
  const target = once(() => createUser(db, {}));
  const report = once(async () => {
    const [row] = await db
      .insert(reports)
      .values({
        reporterId: users.member.id,
        subjectType: 'user',
        subjectId: users.owner.id,
        reason: 'matrix',
      })
      .returning({ id: reports.id });
    return row;
  });
  return { publicFile, privateFile, privatePlaylist, thread, upload, plan, trigger, target, report };
}
type Fixtures = ReturnType<typeof fixtures>;

interface Row {
  call: (fx: Fixtures, actor: Actor) => Call | Promise<Call>;
  expect: Record<Actor, number>;
  /** The call ends the caller's session (sign-out): sign in again after it. */
  endsSession?: boolean;
}

/** Statuses by caller: `anonymous` first, then everyone signed in, with exceptions. */
function statuses(anonymous: number, signedIn: number, except: Partial<Record<SignedActor, number>> = {}) {
  const out = { anonymous } as Record<Actor, number>;
  for (const actor of Object.keys(ROLES) as SignedActor[]) out[actor] = except[actor] ?? signedIn;
  return out;
}
const everyone = (status: number) => statuses(status, status);

const png = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);
const cues = new TextEncoder().encode(JSON.stringify([{ time: 0, stopTime: 500, strength: 0.5 }]));

const MATRIX: Record<string, Row> = {
  'POST /token': {
    call: () => ({ body: { user: users.stranger.username, password: users.stranger.password } }),
    expect: everyone(200),
  },
  'DELETE /token': { call: () => ({}), expect: statuses(401, 204), endsSession: true },
  'GET /user/export': { call: () => ({}), expect: statuses(401, 200) },
  // With a wrong password, so the matrix keeps its callers (deletion itself: account-data.test.ts).
  'DELETE /user': {
    call: () => ({ body: { password: 'not the password', content: 'delete' } }),
    expect: statuses(401, 403),
  },
  'DELETE /sessions': { call: () => ({}), expect: statuses(401, 204), endsSession: true },
  'PUT /user/password': {
    call: (_fx, actor) => ({
      body: {
        currentPassword: actor === 'anonymous' ? 'x' : users[actor].password,
        newPassword: actor === 'anonymous' ? 'long enough' : users[actor].password,
      },
    }),
    expect: statuses(401, 200),
    endsSession: true,
  },
  'POST /register': {
    call: () => {
      const name = `r${randomUUID().slice(0, 8)}`;
      return { body: { user: name, email: `${name}@example.test`, password: 'long enough password' } };
    },
    expect: everyone(201),
  },
  'POST /verify': { call: () => ({ body: { token: 'not-a-token' } }), expect: everyone(400) },
  'POST /reset_password': {
    call: () => ({ body: { username: users.stranger.username, email: users.stranger.email } }),
    expect: everyone(200),
  },
  'GET /files': {
    call: async (fx) => ({ query: { uuid: (await fx.privateFile()).uuid } }),
    expect: statuses(404, 404, { owner: 200, moderator: 200, admin: 200 }),
  },
  'POST /files': {
    call: async (fx) => ({ body: { uuid: await fx.upload(), name: 'Made', fileType: 2 } }),
    expect: statuses(401, 403, { owner: 200, creator: 404, admin: 404 }),
  },
  'PUT /files': {
    call: async (fx) => ({ body: { id: (await fx.publicFile()).id, description: 'changed', fileType: 2 } }),
    expect: statuses(401, 403, { owner: 200, moderator: 200, admin: 200 }),
  },
  'DELETE /files': {
    call: async (fx) => ({ query: { id: (await fx.publicFile()).id } }),
    expect: statuses(401, 403, { owner: 204, moderator: 204, admin: 204 }),
  },
  'POST /files/attachment': {
    call: async (fx) => ({
      multipart: {
        fields: { fileId: String((await fx.publicFile()).id), kind: 'haptics' },
        file: { field: 'file', name: 'cues.json', bytes: cues },
      },
    }),
    expect: statuses(401, 403, { owner: 200, moderator: 200, admin: 200 }),
  },
  'DELETE /files/attachment': {
    call: async (fx) => ({ query: { fileId: (await fx.publicFile()).id, kind: 'haptics' } }),
    expect: statuses(401, 403, { owner: 204, moderator: 204, admin: 204 }),
  },
  'GET /files/waveform': {
    call: async (fx) => ({ query: { id: (await fx.privateFile()).id } }),
    expect: statuses(404, 404, { owner: 200, moderator: 200, admin: 200 }),
  },
  // The cue editor's calls are for those who may edit the file (the editor is edit mode).
  'GET /files/peaks': {
    call: async (fx) => ({
      query: { fileId: (await fx.privateFile()).id, fromMs: 0, toMs: 1000, msPerPeak: 10 },
    }),
    expect: statuses(401, 404, { owner: 200, moderator: 200, admin: 200 }),
  },
  'GET /files/cues': {
    call: async (fx) => ({ query: { fileId: (await fx.publicFile()).id } }),
    expect: statuses(401, 403, { owner: 200, moderator: 200, admin: 200 }),
  },
  'PUT /files/cues': {
    call: async (fx) => ({
      body: {
        fileId: (await fx.publicFile()).id,
        revision: 0,
        cues: [{ time: 0, stopTime: 500, strength: 0.5 }],
      },
    }),
    expect: statuses(401, 403, { owner: 200, moderator: 200, admin: 200 }),
  },
  'GET /files/upload-options': {
    call: () => ({}),
    expect: statuses(401, 403, { owner: 200, creator: 200, admin: 200 }),
  },
  'GET /playlist/generate': { call: () => ({}), expect: everyone(200) },
  'GET /health': { call: () => ({}), expect: everyone(200) },
  'GET /leaderboard': { call: () => ({}), expect: everyone(200) },
  'GET /leaderboard/user': { call: () => ({ query: { user: users.owner.username } }), expect: everyone(200) },
  'POST /session': { call: () => ({ body: { timezone: 'UTC' } }), expect: everyone(200) },
  // Insights: a file's for its uploader and administrators (a file the caller cannot see is 404).
  'GET /insights/files/:id': {
    call: async (fx) => ({ params: { id: (await fx.privateFile()).id } }),
    expect: statuses(401, 404, { owner: 200, moderator: 403, admin: 200 }),
  },
  'GET /insights/creators/:id': {
    call: () => ({ params: { id: users.owner.id } }),
    expect: statuses(401, 403, { owner: 200, admin: 200 }),
  },
  'GET /insights/listening': { call: () => ({}), expect: statuses(401, 200) },
  'GET /insights/site': { call: () => ({}), expect: statuses(401, 403, { admin: 200 }) },
  // Signed in only; without a kept copy the session is answered refused (offline.test.ts).
  'POST /session/offline': {
    call: async (fx) => ({
      body: {
        sessions: [
          {
            fileId: (await fx.publicFile()).id,
            startedAt: '2026-06-01T11:00:00Z',
            endedAt: '2026-06-01T11:05:00Z',
            listenedMs: 300_000,
          },
        ],
      },
    }),
    expect: statuses(401, 200),
  },
  'GET /messages/threads': { call: () => ({}), expect: statuses(401, 200) },
  'GET /messages/thread': {
    call: async (fx) => ({ query: { id: (await fx.thread()).threadId } }),
    expect: statuses(401, 404, { owner: 200, member: 200 }),
  },
  'POST /messages/threads': {
    call: () => ({ body: { name: null, userIds: String(siteOwner.id) } }),
    expect: statuses(401, 200),
  },
  'POST /messages': {
    call: async (fx) => ({ body: { threadId: (await fx.thread()).threadId, message: 'hello' } }),
    expect: statuses(401, 404, { owner: 200, member: 200 }),
  },
  'GET /messages': {
    call: async (fx) => ({ query: { threadId: (await fx.thread()).threadId } }),
    expect: statuses(401, 404, { owner: 200, member: 200 }),
  },
  'PUT /messages/read': {
    call: async (fx) => {
      const { threadId, messageId } = await fx.thread();
      return { body: { threadId, messageId } };
    },
    expect: statuses(401, 404, { owner: 204, member: 204 }),
  },
  'POST /user/block': {
    call: async (fx) => ({ body: { threadId: (await fx.thread()).threadId } }),
    expect: statuses(401, 404, { owner: 200, member: 200 }),
  },
  'DELETE /user/block': { call: () => ({ query: { userId: users.owner.id } }), expect: statuses(401, 204) },
  'GET /user/blocks': { call: () => ({}), expect: statuses(401, 200) },
  'POST /reports': {
    call: async (fx) => ({
      body: { subjectType: 'file', subjectId: (await fx.privateFile()).id, reason: 'x' },
    }),
    expect: statuses(401, 404, { owner: 200, moderator: 200, admin: 200 }),
  },
  'GET /moderation/reports': { call: () => ({}), expect: statuses(401, 403, { moderator: 200, admin: 200 }) },
  'POST /moderation/reports/:id/actions': {
    call: async (fx) => ({ params: { id: (await fx.report()).id }, body: { action: 'dismiss' } }),
    expect: statuses(401, 403, { moderator: 200, admin: 200 }),
  },
  'GET /moderation/log': { call: () => ({}), expect: statuses(401, 403, { moderator: 200, admin: 200 }) },
  'GET /playlists': {
    call: async (fx) => ({ query: { uuid: (await fx.privatePlaylist()).uuid } }),
    expect: statuses(404, 404, { owner: 200, moderator: 200, admin: 200 }),
  },
  'GET /playlists/recent': { call: () => ({}), expect: everyone(200) },
  'POST /playlists': { call: () => ({ body: { name: 'Mine', expLevel: 1 } }), expect: statuses(401, 201) },
  'PUT /playlists': {
    call: async (fx) => ({ body: { id: (await fx.privatePlaylist()).id, name: 'Renamed' } }),
    expect: statuses(401, 404, { owner: 200, moderator: 403, admin: 403 }),
  },
  'DELETE /playlist': {
    call: async (fx) => ({ query: { id: (await fx.privatePlaylist()).id } }),
    expect: statuses(401, 404, { owner: 204, moderator: 403, admin: 403 }),
  },
  'GET /playlist/user': {
    call: async (fx) => ({ query: { id: (await fx.privatePlaylist()).id } }),
    expect: statuses(404, 404, { owner: 200, moderator: 200, admin: 200 }),
  },
  'PUT /playlist/user': {
    call: async (fx) => ({ body: { id: (await fx.privatePlaylist()).id, isFavorite: true } }),
    expect: statuses(401, 404, { owner: 200, moderator: 200, admin: 200 }),
  },
  'GET /series': { call: () => ({}), expect: everyone(200) },
  'PUT /userseries': {
    call: async (fx) => ({ body: { id: (await fx.plan()).id, playlistIndex: 1 } }),
    expect: statuses(401, 200),
  },
  'GET /tags': { call: () => ({}), expect: everyone(200) },
  'GET /creators': { call: () => ({}), expect: everyone(200) },
  // Registered only on test servers started with the test clock (e2e); absent here.
  'POST /test/clock': { call: () => ({ body: { advanceMs: 1000 } }), expect: everyone(404) },
  'GET /triggers': { call: () => ({}), expect: everyone(200) },
  'POST /triggers': {
    call: () => ({ body: { name: `t ${randomUUID().slice(0, 8)}` } }),
    expect: statuses(401, 403, { owner: 201, creator: 201, moderator: 201, admin: 201 }),
  },
  'GET /triggers/requests': {
    call: () => ({}),
    expect: statuses(401, 403, { owner: 200, creator: 200, moderator: 200, admin: 200 }),
  },
  'PUT /triggers': {
    call: async (fx) => ({ body: { id: (await fx.trigger()).id, description: 'new words' } }),
    expect: statuses(401, 403, { moderator: 200, admin: 200 }),
  },
  'DELETE /trigger': {
    call: async (fx) => ({ query: { id: (await fx.trigger()).id } }),
    expect: statuses(401, 403, { moderator: 204, admin: 204 }),
  },
  'POST /files/upload': {
    call: () => ({
      multipart: {
        fields: {
          uuid: randomUUID(),
          fileName: 'take.wav',
          secure: 'false',
          chunkIndex: '0',
          totalChunks: '1',
          chunkSize: '4',
        },
        file: { field: 'chunk', name: 'blob', bytes: new Uint8Array([1, 2, 3, 4]) },
      },
    }),
    expect: statuses(401, 403, { owner: 200, creator: 200, admin: 200 }),
  },
  'GET /files/upload': {
    call: async (fx) => ({ query: { uuid: await fx.upload() } }),
    expect: statuses(401, 404, { owner: 200 }),
  },
  'GET /files/uploads': { call: () => ({}), expect: statuses(401, 200) },
  'DELETE /files/upload': {
    call: async (fx) => ({ query: { uuid: await fx.upload() } }),
    expect: statuses(401, 404, { owner: 204 }),
  },
  'GET /user': { call: () => ({ query: { username: users.owner.username } }), expect: everyone(200) },
  'PUT /user': { call: () => ({ body: { biography: 'About me' } }), expect: statuses(401, 200) },
  'PUT /users/:id/roles': {
    call: async (fx) => ({ params: { id: (await fx.target()).id }, body: { role: 'Contributor' } }),
    expect: statuses(401, 403, { admin: 200 }),
  },
  'DELETE /users/:id/roles': {
    call: async (fx) => ({ params: { id: (await fx.target()).id }, query: { role: 'Contributor' } }),
    expect: statuses(401, 403, { admin: 200 }),
  },
  'POST /user/upload': {
    call: () => ({ multipart: { fields: {}, file: { field: 'file', name: 'me.png', bytes: png } } }),
    expect: statuses(401, 200),
  },
  'GET /user/friends': { call: () => ({}), expect: statuses(401, 200) },
  'PUT /user/friends': { call: () => ({ body: { friendId: siteOwner.id } }), expect: statuses(401, 200) },
  'DELETE /user/friends': { call: () => ({ query: { friendId: siteOwner.id } }), expect: statuses(401, 200) },
  // Lovense (against the fake, test/fakes/lovense.ts). Commands go to the caller's own pairing only;
  // nobody here is paired (pairing, and a stranger driving another's toys: lovense.test.ts).
  'POST /lovense/qr': { call: () => ({}), expect: statuses(401, 200) },
  'POST /lovense/callback': {
    call: () => ({ body: { uid: String(users.owner.id), utoken: 'forged', domain: 'a.lovense.club' } }),
    expect: everyone(403),
  },
  'GET /lovense/toys': { call: () => ({}), expect: statuses(401, 200) },
  'POST /lovense/command': { call: () => ({ body: { level: 5, timeSec: 0 } }), expect: statuses(401, 409) },
  'POST /lovense/test': { call: () => ({}), expect: statuses(401, 409) },
  'DELETE /lovense': { call: () => ({}), expect: statuses(401, 204) },
  // Patreon (against the fake, test/fakes/patreon.ts). Nobody here is linked; a link, a state of
  // another user or session and a forged webhook: patreon.test.ts.
  'GET /patreon/authorize': { call: () => ({}), expect: statuses(401, 200) },
  'POST /patreon/token': {
    call: () => ({ body: { authCode: 'a-code', state: 'a state nobody was given' } }),
    expect: statuses(401, 403),
  },
  'GET /patreon': { call: () => ({}), expect: statuses(401, 200) },
  'DELETE /patreon': { call: () => ({}), expect: statuses(401, 204) },
  'POST /patreon/webhook': {
    call: () => ({ body: { data: { type: 'member', id: '1' } } }),
    expect: everyone(403),
  },
  // Only for a linked campaign (the caller's own), or an administrator naming a linked creator.
  'POST /patreon/tiers/import': {
    call: () => ({ body: { username: users.owner.username } }),
    expect: statuses(401, 403, { owner: 403, admin: 409 }),
  },
};

const keyOf = (route: RouteDefinition) => `${route.method} ${route.path}`;

async function send(route: RouteDefinition, call: Call, actor: Actor) {
  const headers: Record<string, string> = actor === 'anonymous' ? {} : authHeader(users[actor].token);
  const url = `/api${route.path.replace(/:(\w+)/g, (_, name: string) => String(call.params?.[name]))}`;
  const query = Object.fromEntries(Object.entries(call.query ?? {}).map(([k, v]) => [k, String(v)]));
  let payload: string | Buffer | undefined;
  if (call.multipart) {
    const form = new FormData();
    for (const [name, value] of Object.entries(call.multipart.fields)) form.append(name, value);
    const file = call.multipart.file;
    if (file) form.append(file.field, new Blob([Uint8Array.from(file.bytes)]), file.name);
    const encoded = new Response(form);
    headers['content-type'] = encoded.headers.get('content-type') as string;
    payload = Buffer.from(await encoded.arrayBuffer());
  } else if (call.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(call.body);
  }
  return app.inject({ method: route.method, url, query, headers, payload });
}

describe('the authorisation matrix', () => {
  it('has one row for every route of the contract, and none for a route that is not in it', () => {
    const routes = allRoutes.map(keyOf).sort();
    expect(Object.keys(MATRIX).sort()).toEqual(routes);
  });

  for (const route of allRoutes) {
    const row = MATRIX[keyOf(route)];
    if (!row) continue;
    it(`${keyOf(route)}: ${ACTORS.map((a) => `${a} ${row.expect[a]}`).join(', ')}`, async () => {
      const got = {} as Record<Actor, number>;
      for (const actor of ACTORS) {
        const fx = fixtures();
        const res = await send(route, await row.call(fx, actor), actor);
        got[actor] = res.statusCode;
        if (row.endsSession && actor !== 'anonymous') await signIn(actor);
      }
      expect(got).toEqual(row.expect);
    });
  }
});

/** A chunk call (or, without `chunk`, the completing call) of the upload with the handle `uuid`. */
function uploadCall(uuid: string, chunk = true): Call {
  const fields = { uuid, fileName: 'take.wav', secure: 'false', chunkIndex: '0', totalChunks: '1' };
  return {
    multipart: chunk
      ? {
          fields: { ...fields, chunkSize: '4' },
          file: { field: 'chunk', name: 'blob', bytes: new Uint8Array(4) },
        }
      : { fields },
  };
}

/**
 * The upload routes take ids a client names: each caller names another user's upload, and a
 * published file's uuid where an upload would be created (a first chunk, POST /files). Nobody
 * reaches another's upload, and no upload is ever made under a file's uuid.
 */
const ID_CASES: {
  name: string;
  route: string;
  call: (fx: Fixtures) => Promise<Call>;
  expect: Record<Actor, number>;
}[] = [
  {
    name: "another user's upload id, in a chunk (the caller's own upload of that handle is made)",
    route: 'POST /files/upload',
    call: async (fx) => uploadCall(await fx.upload()),
    expect: statuses(401, 403, { owner: 409, creator: 200, admin: 200 }),
  },
  {
    name: "another user's upload id, completing",
    route: 'POST /files/upload',
    call: async (fx) => uploadCall(await fx.upload(), false),
    expect: statuses(401, 403, { owner: 200, creator: 404, admin: 404 }),
  },
  {
    name: "another user's upload id, made into a file",
    route: 'POST /files',
    call: async (fx) => ({ body: { uuid: await fx.upload(), name: 'Made', fileType: 2 } }),
    expect: statuses(401, 403, { owner: 200, creator: 404, admin: 404 }),
  },
  {
    name: "a published file's uuid in a create call (a first chunk)",
    route: 'POST /files/upload',
    call: async (fx) => uploadCall((await fx.publicFile()).uuid),
    expect: statuses(401, 403, { owner: 400, creator: 400, admin: 400 }),
  },
  {
    name: "a published file's uuid in a create call (POST /files)",
    route: 'POST /files',
    call: async (fx) => ({ body: { uuid: (await fx.publicFile()).uuid, name: 'Made', fileType: 2 } }),
    expect: statuses(401, 403, { owner: 404, creator: 404, admin: 404 }),
  },
  {
    name: "a published file's uuid, as an upload's status",
    route: 'GET /files/upload',
    call: async (fx) => ({ query: { uuid: (await fx.publicFile()).uuid } }),
    expect: statuses(401, 404),
  },
  {
    name: "a published file's uuid, cancelled as an upload",
    route: 'DELETE /files/upload',
    call: async (fx) => ({ query: { uuid: (await fx.publicFile()).uuid } }),
    expect: statuses(401, 404),
  },
];

describe('ids the client names, on the upload routes', () => {
  for (const row of ID_CASES) {
    const route = allRoutes.find((r) => keyOf(r) === row.route) as RouteDefinition;
    it(`${row.route}, ${row.name}: ${ACTORS.map((a) => `${a} ${row.expect[a]}`).join(', ')}`, async () => {
      const got = {} as Record<Actor, number>;
      for (const actor of ACTORS) {
        const fx = fixtures();
        const res = await send(route, await row.call(fx), actor);
        got[actor] = res.statusCode;
        const file = await fx.publicFile();
        // No upload carries the published file's uuid, as handle or as id.
        expect(await db.select().from(uploads).where(eq(uploads.uuid, file.uuid)), actor).toEqual([]);
        expect(await db.select().from(uploads).where(eq(uploads.id, file.uuid)), actor).toEqual([]);
      }
      expect(got).toEqual(row.expect);
    });
  }
});

describe('no leaks between users', () => {
  const as = (actor: Actor, url: string) =>
    app.inject({ method: 'GET', url, headers: actor === 'anonymous' ? {} : authHeader(users[actor].token) });
  const outsiders: Actor[] = ['anonymous', 'stranger', 'creator'];

  it("keeps the owner's private file and playlist out of everyone else's lists and searches", async () => {
    const fx = fixtures();
    const file = await fx.privateFile();
    const playlist = await fx.privatePlaylist();
    for (const actor of outsiders) {
      const files = await as(
        actor,
        `/api/files?pageSize=50&searchQuery=${encodeURIComponent('Owner private')}`,
      );
      expect(files.body, actor).not.toContain(file.uuid);
      const byCreator = await as(actor, `/api/files?pageSize=50&creatorIds=${users.owner.id}`);
      expect(byCreator.body, actor).not.toContain(file.uuid);
      const lists = await as(actor, `/api/playlists?user=${users.owner.id}`);
      expect(lists.body, actor).not.toContain(playlist.uuid);
      const search = await as(
        actor,
        `/api/playlists?searchQuery=${encodeURIComponent('Owner private list')}`,
      );
      expect(search.body, actor).not.toContain(playlist.uuid);
    }
    expect((await as('owner', `/api/playlists?user=${users.owner.id}`)).body).toContain(playlist.uuid);
  });

  it('keeps a thread and its messages to its members', async () => {
    const fx = fixtures();
    const { threadId } = await fx.thread();
    for (const actor of ['stranger', 'creator', 'moderator', 'admin'] as const) {
      const list = await as(actor, '/api/messages/threads?pageSize=16&pageOffset=0');
      expect(list.body, actor).not.toContain('between owner and member');
      expect(
        list.json().threads.map((t: { id: number }) => t.id),
        actor,
      ).not.toContain(threadId);
    }
  });

  it("shows another user's profile without their e-mail, settings, tokens or memberships", async () => {
    for (const actor of ['anonymous', 'stranger', 'member'] as const) {
      const res = await as(actor, `/api/user?username=${users.owner.username}`);
      expect(res.statusCode).toBe(200);
      const profile = res.json().user as Record<string, unknown>;
      expect(profile.username).toBe(users.owner.username);
      expect(res.body).not.toContain(users.owner.email);
      for (const field of [
        'email',
        'token',
        'lovenseToken',
        'lovenseSettings',
        'censorTriggers',
        'hideLockedFiles',
        'memberships',
      ]) {
        expect(profile, `${actor} sees ${field}`).not.toHaveProperty(field);
      }
    }
  });

  it('gives no audio of a locked file to a non-member: not in answers, not by guessing, not by replaying a link', async () => {
    const tier = await createTier(db, {
      creatorName: 'Owner',
      title: 'Gold',
      rank: 1,
      creatorUserId: users.owner.id,
    });
    const file = await createFile(db, { authorId: users.owner.id, name: 'Owner locked', tierIds: [tier.id] });
    const mine = (await as('owner', `/api/files?uuid=${file.uuid}`)).json().files[0];
    expect(mine.audioURL).toBeTruthy();
    for (const actor of ['anonymous', 'stranger', 'member', 'creator'] as const) {
      const theirs = (await as(actor, `/api/files?uuid=${file.uuid}`)).json().files[0];
      expect(theirs.isLocked, actor).toBe(true);
      expect(theirs.audioURL ?? null, actor).toBeNull();
      // The owner's signed link, replayed by someone else, and the bare path guessed.
      expect((await as(actor, mine.audioURL)).statusCode, actor).toBe(403);
      expect((await as(actor, mine.audioURL.split('?')[0])).statusCode, actor).toBe(403);
      const download = await as(actor, `/download/${file.uuid}`);
      expect(download.headers.location, actor).toBe('/404');
    }
  });
});

// Decision 041, by the same seven callers: a playlist handed over at an account's deletion is
// changed only by staff holding WRITE_ALL_FILES; a thread whose only other member (the owner)
// blocked the member takes no post from the member.
describe('blocks and handed-over content', () => {
  const each = async (
    make: (actor: Actor) => Promise<{ url: string; method: 'PUT' | 'POST'; payload: object }>,
  ) => {
    const got = {} as Record<Actor, number>;
    for (const actor of ACTORS) {
      const { url, method, payload } = await make(actor);
      const headers = actor === 'anonymous' ? {} : authHeader(users[actor].token);
      got[actor] = (await app.inject({ method, url, payload, headers })).statusCode;
    }
    return got;
  };

  it('PUT /playlists of the former-member account: moderator 200, admin 200, others 404, anonymous 401', async () => {
    const formerMember = await createFormerMemberRepo(db).findOrCreate(new Date());
    const got = await each(async () => {
      const list = await createPlaylist(db, {
        creatorId: formerMember,
        name: 'Handed over',
        isPublic: false,
      });
      return { method: 'PUT', url: '/api/playlists', payload: { id: list.id, isPublic: true } };
    });
    expect(got).toEqual(statuses(401, 404, { moderator: 200, admin: 200 }));
  });

  it('POST /messages to a named thread whose only other member blocked the caller: member 403', async () => {
    await fixtures().thread(); // clears blocks between owner and member left by earlier calls
    const made = await app.inject({
      method: 'POST',
      url: '/api/messages/threads',
      headers: authHeader(users.owner.token),
      payload: { name: 'Named pair', userIds: String(users.member.id) },
    });
    const threadId = made.json().id as number;
    await db.insert(blocks).values({ blockerId: users.owner.id, blockedId: users.member.id });
    try {
      const got = await each(async () => ({
        method: 'POST',
        url: '/api/messages',
        payload: { threadId, message: 'hello' },
      }));
      expect(got).toEqual(statuses(401, 404, { owner: 200, member: 403 }));
    } finally {
      await db
        .delete(blocks)
        .where(and(eq(blocks.blockerId, users.owner.id), eq(blocks.blockedId, users.member.id)));
    }
  });
});

// The socket events, with the same callers: every event the server takes (SOCKET_LIMITS.events)
// has a row. Anonymous never gets past the handshake; only the thread's members get its messages.
type SocketOutcome = 'refused at handshake' | 'the thread' | 'Thread not found.';
const SOCKET_ROWS: Record<string, Record<Actor, SocketOutcome>> = {
  set_thread: {
    anonymous: 'refused at handshake',
    member: 'the thread',
    owner: 'the thread',
    stranger: 'Thread not found.',
    creator: 'Thread not found.',
    moderator: 'Thread not found.',
    admin: 'Thread not found.',
  },
};

describe('the authorisation matrix of the socket events', () => {
  let url = '';
  const open: Socket[] = [];
  beforeAll(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    for (const s of open) s.disconnect();
  });
  const once = <T>(socket: Socket, event: string) =>
    new Promise<T | 'nothing'>((resolve) => {
      const timer = setTimeout(() => resolve('nothing'), 1500);
      socket.once(event, (payload: T) => {
        clearTimeout(timer);
        resolve(payload);
      });
    });

  it('has a row for every event the server takes', () => {
    expect(Object.keys(SOCKET_ROWS).sort()).toEqual(Object.keys(SOCKET_LIMITS.events).sort());
  });

  for (const actor of ACTORS) {
    it(`set_thread as ${actor}: ${SOCKET_ROWS.set_thread?.[actor]}`, async () => {
      const { threadId } = await fixtures().thread();
      const socket = connectSocket(url, {
        path: '/socket.io',
        transports: ['websocket'],
        reconnection: false,
        auth: actor === 'anonymous' ? {} : { token: users[actor].token },
      });
      open.push(socket);
      const connected = await new Promise<string>((resolve) => {
        socket.once('connect', () => resolve('connected'));
        socket.once('connect_error', (err) => resolve(err.message));
      });
      if (SOCKET_ROWS.set_thread?.[actor] === 'refused at handshake') {
        expect(connected).toBe('You need to be logged in to do that.');
        return;
      }
      expect(connected).toBe('connected');
      const page = once<{ messages: { message: string }[] }>(socket, 'bulk_messages');
      const refused = once<{ error: string }>(socket, 'error_message');
      socket.emit('set_thread', threadId, null, null);
      const member = SOCKET_ROWS.set_thread?.[actor] === 'the thread';
      if (member) {
        const got = await page;
        expect(got === 'nothing' ? got : got.messages.map((m) => m.message)).toContain(
          'between owner and member',
        );
      } else {
        expect(await refused).toEqual({ error: 'Thread not found.', threadId });
      }
      // Live: a new message reaches the members' sockets only.
      const live = once<{ message: string }>(socket, 'message');
      const posted = await app.inject({
        method: 'POST',
        url: '/api/messages',
        headers: authHeader(users.owner.token),
        payload: { threadId, message: `live for ${actor}` },
      });
      expect(posted.statusCode).toBe(200);
      const heard = await live;
      expect(heard === 'nothing' ? 'nothing' : heard.message).toBe(member ? `live for ${actor}` : 'nothing');
    });
  }
});
