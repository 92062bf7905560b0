// A server killed with SIGKILL in the middle of writes and of an upload, then started again on the
// same data: every write it acknowledged is there, nothing half-written shows, and the upload goes on
// from the chunks it had stored. On PostgreSQL (the PostgreSQL pass) and on the embedded database.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client.ts';
import { sineFile } from './test/audio-fixtures.ts';
import { createUser, type TestUser } from './test/factories.ts';
import { testDbKind } from './test/harness.ts';
import {
  createTempDatabase,
  type ServerProcess,
  startServerProcess,
  type TempDatabase,
} from './test/server-process.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const onPostgres = testDbKind === 'postgres' && !!adminUrl;

describe(`a server killed with SIGKILL (${onPostgres ? 'PostgreSQL' : 'embedded database'})`, {
  timeout: 180_000,
}, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-crash-'));
  let database: TempDatabase | undefined;
  let env: Record<string, string>;
  let server: ServerProcess;
  let creator: TestUser;

  beforeAll(async () => {
    database = onPostgres ? await createTempDatabase(adminUrl as string, 'mesmer_crash') : undefined;
    env = {
      DATA_DIR: dataDir,
      RATE_LIMIT: 'false',
      ...(database ? { DATABASE_URL: database.url } : {}),
    };
    server = await startServerProcess(env);
    // The embedded database is the server's alone while it runs: users go in through the API's own
    // process on PostgreSQL, and through a stopped server's folder on PGlite.
    if (database) {
      const db = await openDatabase({ databaseUrl: database.url, pgliteDir: 'memory://' });
      await createUser(db.db, { username: 'owner' });
      creator = await createUser(db.db, { username: 'creator', roles: ['Verified Creator'] });
      await db.close();
    } else {
      await server.stop();
      const db = await openDatabase({ databaseUrl: undefined, pgliteDir: path.join(dataDir, 'db') });
      await createUser(db.db, { username: 'owner' });
      creator = await createUser(db.db, { username: 'creator', roles: ['Verified Creator'] });
      await db.close();
      server = await startServerProcess(env);
    }
  });

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const api = async (method: string, route: string, token?: string, body?: object) => {
    const res = await fetch(`${server.url}/api${route}`, {
      method,
      headers: {
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> };
  };
  const login = async () => {
    const res = await api('POST', '/token', undefined, {
      user: creator.username,
      password: creator.password,
      timezone: 'UTC',
    });
    expect(res.status).toBe(200);
    return res.body.token as string;
  };

  it('keeps every write it acknowledged before the kill', async () => {
    const token = await login();
    const acknowledged: string[] = [];
    let stop = false;
    // Four writers creating playlists until the kill cuts them off.
    const writer = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const res = await api('POST', '/playlists', token, { name: `w${n}-${i}`, expLevel: 1 }).catch(
          () => null,
        );
        if (!res) return;
        if (res.status === 200 || res.status === 201) acknowledged.push(res.body.uuid as string);
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    while (acknowledged.length < 40) await new Promise((r) => setTimeout(r, 10));
    await server.stop('SIGKILL');
    stop = true;
    await Promise.all(writers);

    server = await startServerProcess(env);
    const after = await login();
    const mine = await api('GET', `/playlists?user=${creator.id}&pageSize=1&pageOffset=0`, after);
    expect(mine.status).toBe(200);
    expect(mine.body.totalItems as number).toBeGreaterThanOrEqual(acknowledged.length);
    for (const uuid of acknowledged) {
      const one = await api('GET', `/playlists?uuid=${uuid}`, after);
      expect((one.body.playlists as unknown[]).length, uuid).toBe(1);
    }
  });

  it('shows no half file after a kill during an upload, and lets the upload go on from its stored chunks', async () => {
    const token = await login();
    const bytes = fs.readFileSync(await sineFile('wav', 62));
    const partSize = 5 * 1024 * 1024;
    const chunks = [bytes.subarray(0, partSize), bytes.subarray(partSize)];
    const uuid = randomUUID();
    const form = (index: number, chunk?: Buffer) => {
      const body = new FormData();
      const fields = { uuid, fileName: 'Crash.wav', secure: false, chunkIndex: index, totalChunks: 2 };
      for (const [name, value] of Object.entries(fields)) body.append(name, String(value));
      if (chunk) {
        body.append('chunkSize', String(chunk.length));
        body.append('fileSize', String(bytes.length));
        body.append('chunk', new Blob([new Uint8Array(chunk)]), 'blob');
      }
      return new Response(body);
    };
    const send = async (index: number, chunk?: Buffer) => {
      const encoded = form(index, chunk);
      const res = await fetch(`${server.url}/api/files/upload`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': encoded.headers.get('content-type') as string,
        },
        body: Buffer.from(await encoded.arrayBuffer()),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    expect((await send(0, chunks[0])).status).toBe(200);

    // The second chunk: half of its request goes out, then the server is killed.
    const encoded = form(1, chunks[1]);
    const payload = Buffer.from(await encoded.arrayBuffer());
    const request = http.request(`${server.url}/api/files/upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': encoded.headers.get('content-type') as string,
        'content-length': payload.length,
      },
    });
    const cut = new Promise((resolve) => request.on('error', resolve).on('response', resolve));
    request.write(payload.subarray(0, payload.length / 2));
    await new Promise((r) => setTimeout(r, 300));
    await server.stop('SIGKILL');
    await cut;

    server = await startServerProcess(env);
    const after = await login();
    const state = await api('GET', `/files/upload?uuid=${uuid}`, after);
    expect(state.status).toBe(200);
    expect(state.body.receivedChunks).toEqual([0]);
    // No file of it, and no audio object at all (the upload's audio is named by the server's id).
    const mine = await api('GET', '/files?myFiles=true', after);
    expect(mine.body.files).toEqual([]);
    const audioDir = path.join(dataDir, 'media', 'audio');
    expect(fs.existsSync(audioDir) ? fs.readdirSync(audioDir) : []).toEqual([]);

    const again = await fetch(`${server.url}/api/files/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${after}` },
      body: await form(1, chunks[1]).formData(),
    });
    expect(again.status, await again.clone().text()).toBe(200);
    const done = await fetch(`${server.url}/api/files/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${after}` },
      body: await form(0).formData(),
    });
    expect(done.status, await done.clone().text()).toBe(200);
    const created = await api('POST', '/files', after, { uuid, name: 'Survivor', fileType: 2 });
    expect(created.status).toBe(200);
    const file = await api('GET', '/files?myFiles=true', after);
    const [survivor] = file.body.files as { id: number; audioURL: string }[];
    expect(survivor?.id).toBe(created.body.id);
    const media = await fetch(new URL(survivor.audioURL, server.url));
    expect(Buffer.from(await media.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
