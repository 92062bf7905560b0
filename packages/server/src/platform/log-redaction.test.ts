import { describe, expect, it } from 'vitest';
import { authHeader, createSignedInUser } from '../test/factories.ts';
import { createTestApp } from '../test/harness.ts';
import { redactUrl } from './log-redaction.ts';

/** The log lines the app writes at info, parsed. */
const lines: Record<string, unknown>[] = [];
const { app } = await createTestApp(
  { logLevel: 'info' },
  { logStream: { write: (line: string) => lines.push(JSON.parse(line)) } },
);

describe('the request log', () => {
  it('never holds an OAuth code or state, an e-mail token or a media signature from a URL', async () => {
    lines.length = 0;
    const secrets = ['code-SECRET-1', 'state-SECRET-2', 'token-SECRET-3', 'sig-SECRET-4', 'utok-SECRET-5'];
    for (const url of [
      `/patreon/oauth?code=${secrets[0]}&state=${secrets[1]}`,
      `/verify?token=${secrets[2]}`,
      `/media/audio/x.wav?file=1&exp=9&sig=${secrets[3]}`,
      `/api/files?nameQuery=velvet&utoken=${secrets[4]}&Code=${secrets[0]}`,
    ]) {
      await app.inject({ method: 'GET', url });
    }
    const requestLines = lines.filter((l) => l.msg === 'incoming request');
    expect(requestLines).toHaveLength(4);
    expect(requestLines.map((l) => (l.req as { url: string }).url)).toEqual([
      '/patreon/oauth?code=[redacted]&state=[redacted]',
      '/verify?token=[redacted]',
      '/media/audio/x.wav?file=1&exp=9&sig=[redacted]',
      '/api/files?nameQuery=velvet&utoken=[redacted]&Code=[redacted]',
    ]);
    const log = JSON.stringify(lines);
    for (const secret of secrets) expect(log).not.toContain(secret);
  });

  it('never holds a bearer token, a cookie or a token field, whoever logs them', async () => {
    const user = await createSignedInUser(app);
    lines.length = 0;
    await app.inject({ method: 'GET', url: '/api/user', headers: authHeader(user.token) });
    app.log.info(
      {
        headers: { authorization: `Bearer ${user.token}`, cookie: `token=${user.token}` },
        body: { authCode: 'body-code-secret', state: 'kept', refreshToken: 'refresh-secret' },
        link: { accessToken: 'access-secret', refresh_token: 'refresh-2-secret' },
        token: 'plain-token-secret',
      },
      'logged by mistake',
    );
    const logged = lines.find((l) => l.msg === 'logged by mistake');
    expect(logged).toMatchObject({
      headers: { authorization: '[redacted]', cookie: '[redacted]' },
      body: { authCode: '[redacted]', refreshToken: '[redacted]' },
      link: { accessToken: '[redacted]', refresh_token: '[redacted]' },
      token: '[redacted]',
    });
    const log = JSON.stringify(lines);
    for (const secret of [user.token, 'body-code-secret', 'refresh-secret', 'access-secret', 'plain-token'])
      expect(log).not.toContain(secret);
  });
});

describe('redactUrl', () => {
  it('keeps paths and harmless parameters, and names of secret ones', () => {
    expect(redactUrl('/api/files')).toBe('/api/files');
    expect(redactUrl('/a?x=1&code=2&y&state')).toBe('/a?x=1&code=[redacted]&y&state=[redacted]');
    expect(redactUrl('/a?%63ode=2&bad=%E0%A4%A')).toBe('/a?%63ode=[redacted]&bad=%E0%A4%A');
  });
});
