import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness.ts';

/** The log lines each app writes, parsed. */
function logInto(lines: Record<string, unknown>[]) {
  return { logStream: { write: (line: string) => lines.push(JSON.parse(line)) } };
}

describe('request ids without a trusted proxy', async () => {
  const lines: Record<string, unknown>[] = [];
  const { app } = await createTestApp({ logLevel: 'info' }, logInto(lines));

  it('answers each request with a new X-Request-Id that its log lines carry as reqId', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const again = await app.inject({ method: 'GET', url: '/api/health' });
    expect(again.headers['x-request-id']).not.toBe(id);
    const mine = lines.filter((l) => l.reqId === id);
    expect(mine.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
  });

  it('ignores an X-Request-Id sent by the client', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/nothing-here',
      headers: { 'x-request-id': 'chosen-by-client' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['x-request-id']).not.toBe('chosen-by-client');
    expect(lines.some((l) => l.reqId === 'chosen-by-client')).toBe(false);
  });
});

describe('request ids behind a trusted proxy (TRUST_PROXY)', async () => {
  const lines: Record<string, unknown>[] = [];
  const { app } = await createTestApp({ logLevel: 'info', trustProxy: 1 }, logInto(lines));

  it("keeps the proxy's X-Request-Id in the answer and the log", async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'lb-7f3a:42' },
    });
    expect(res.headers['x-request-id']).toBe('lb-7f3a:42');
    expect(lines.filter((l) => l.reqId === 'lb-7f3a:42')).toHaveLength(2);
  });

  it('makes its own id when the header is no id (a log line could be forged with it)', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'a b\nfake line' },
    });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
