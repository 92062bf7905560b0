import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { io as connect } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { authHeader, createSignedInUser } from '../test/factories.ts';
import { createTestApp } from '../test/harness.ts';

describe('GET /metrics in test, without a token', async () => {
  const { app } = await createTestApp();

  it('is open, and shows the request histogram labelled by route pattern after a request', async () => {
    const put = await app.inject({
      method: 'PUT',
      url: '/api/users/123456/roles',
      payload: { role: 'Moderator' },
    });
    expect(put.statusCode).toBe(401);
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="PUT",route="\/api\/users\/:id\/roles",status_code="401"\} 1/,
    );
    expect(text).not.toContain('123456');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toContain('socketio_open_connections 0');
    expect(text).toContain('upload_bytes_total 0');
  });
});

describe('what the modules count', async () => {
  const { app } = await createTestApp();
  const metric = async (name: string) => {
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
  };

  it('counts the bytes of stored upload chunks', async () => {
    const creator = await createSignedInUser(app, { roles: ['Verified Creator'] });
    const chunk = Buffer.alloc(3000, 1);
    const form = new FormData();
    const fields = {
      uuid: randomUUID(),
      fileName: 'Counted.wav',
      secure: false,
      chunkIndex: 0,
      totalChunks: 1,
    };
    for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
    form.append('chunkSize', String(chunk.length));
    form.append('chunk', new Blob([new Uint8Array(chunk)]), 'blob');
    const encoded = new Response(form);
    const res = await app.inject({
      method: 'POST',
      url: '/api/files/upload',
      headers: {
        ...authHeader(creator.token),
        'content-type': encoded.headers.get('content-type') as string,
      },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await metric('upload_bytes_total')).toBe(3000);
  });

  it('counts open messaging sockets', async () => {
    // Only a signed-in socket connects (decision 020).
    const listener = await createSignedInUser(app, { username: `metrics${randomUUID().slice(0, 8)}` });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const socket = connect(`http://127.0.0.1:${port}`, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      auth: { token: listener.token },
    });
    await new Promise((resolve, reject) =>
      socket.once('connect', () => resolve(null)).once('connect_error', reject),
    );
    expect(await metric('socketio_open_connections')).toBe(1);
    socket.disconnect();
    for (let i = 0; i < 50 && (await metric('socketio_open_connections')) !== 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await metric('socketio_open_connections')).toBe(0);
  });
});

describe('GET /metrics with METRICS_TOKEN', async () => {
  const { app } = await createTestApp({ metricsToken: 'a-metrics-token-of-some-length' });

  it('answers 401 without the token or with another, and the metrics with it', async () => {
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer another-token-of-the-same-size' },
    });
    expect(wrong.statusCode).toBe(401);
    const right = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer a-metrics-token-of-some-length' },
    });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('http_request_duration_seconds');
  });
});

describe('GET /metrics in production', async () => {
  const { app } = await createTestApp({ env: 'production' });

  it('is not there without METRICS_TOKEN', async () => {
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found.' });
  });
});
