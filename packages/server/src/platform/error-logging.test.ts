import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness.ts';

/** The log lines the app writes, parsed. */
const lines: Record<string, unknown>[] = [];
const { app } = await createTestApp(
  { logLevel: 'info' },
  { logStream: { write: (line: string) => lines.push(JSON.parse(line)) } },
);

describe('the log of a failed request', () => {
  it('keeps the database error class, code and message, never the query parameters', async () => {
    const db = app.ctx.db;
    await db.execute(sql`alter table users rename to users_gone`);
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { user: 'secret_name', email: 'secret.mail@example.test', password: 'hunter2hunter2' },
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: 'Something went wrong on our side. Please try again.' });
    } finally {
      await db.execute(sql`alter table users_gone rename to users`);
    }

    const failures = lines.filter((l) => l.msg === 'request failed');
    expect(failures).toHaveLength(1);
    expect(failures[0].dbError).toEqual({
      type: 'DrizzleQueryError',
      code: '42P01',
      message: 'relation "users" does not exist',
      at: expect.stringContaining('.repo.ts'),
    });
    const log = JSON.stringify(lines);
    for (const secret of ['secret_name', 'secret.mail', 'hunter2', 'params'])
      expect(log).not.toContain(secret);
  });

  it('redacts passwords and credentials whoever logs them', () => {
    lines.length = 0;
    app.log.info(
      {
        headers: { authorization: 'Bearer tok-secret', cookie: 'token=cookie-secret' },
        body: { password: 'body-secret' },
        password: 'plain-secret',
      },
      'logged by mistake',
    );
    expect(lines[0]).toMatchObject({
      headers: { authorization: '[redacted]', cookie: '[redacted]' },
      body: { password: '[redacted]' },
      password: '[redacted]',
    });
  });
});
