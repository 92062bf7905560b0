import { sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import Fastify from 'fastify';
import { hasZodFastifySchemaValidationErrors, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createUser } from '../test/factories.ts';
import { createTestApp } from '../test/harness.ts';
import { conflictFromDatabase, isDatabaseUnavailable, validationAnswer } from './errors.ts';

describe('validationAnswer', () => {
  it('names the failing field wherever the input came from', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setErrorHandler((err, _req, reply) =>
      hasZodFastifySchemaValidationErrors(err)
        ? reply.code(400).send(validationAnswer(err))
        : reply.send(err),
    );
    app.post(
      '/things/:thingId',
      {
        schema: {
          params: z.object({ thingId: z.coerce.number().int().max(10) }),
          querystring: z.object({ q: z.string().max(3) }),
          headers: z.object({ 'x-count': z.coerce.number().int().max(5) }),
          body: z.object({ list: z.array(z.object({ n: z.number().max(1) })) }),
        },
      },
      async () => ({ ok: true }),
    );
    const send = (over: { url?: string; headers?: Record<string, string>; payload?: unknown }) =>
      app.inject({
        method: 'POST',
        url: over.url ?? '/things/1?q=ab',
        headers: over.headers ?? { 'x-count': '1' },
        payload: (over.payload ?? { list: [{ n: 1 }] }) as object,
      });

    expect((await send({})).statusCode).toBe(200);
    const answers = await Promise.all([
      send({ url: '/things/11?q=ab' }),
      send({ url: '/things/1?q=abcd' }),
      send({ headers: { 'x-count': '6' } }),
      send({ payload: { list: [{ n: 1 }, { n: 2 }] } }),
      send({ payload: [] }),
    ]);
    expect(answers.map((r) => [r.statusCode, r.json().field, r.json().error.split(':')[0]])).toEqual([
      [400, 'thingId', 'thingId'],
      [400, 'q', 'q'],
      [400, 'x-count', 'x-count'],
      [400, 'list.1.n', 'list.1.n'],
      [400, 'body', 'body'],
    ]);
    await app.close();
  });
});

const { app } = await createTestApp();

describe('conflictFromDatabase', () => {
  it('turns a unique violation the database raised into a 409, and nothing else', async () => {
    const user = await createUser(app.ctx.db, { username: 'takenname' });
    const duplicate = await app.ctx.db
      .execute(
        sql`insert into users (username, email, password_hash) select username, email || 'x', password_hash from users where id = ${user.id}`,
      )
      .then(
        () => undefined,
        (err: Error) => err,
      );
    expect(duplicate).toBeInstanceOf(Error);
    expect(conflictFromDatabase(duplicate as Error)).toMatchObject({
      statusCode: 409,
      message: 'That already exists. Please choose another name.',
    });

    const missingTable = await app.ctx.db.execute(sql`select * from no_such_table`).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(conflictFromDatabase(missingTable as Error)).toBeUndefined();
    expect(conflictFromDatabase(new Error('plain'))).toBeUndefined();
  });
});

describe('isDatabaseUnavailable', () => {
  const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

  it('recognises a lost or refused connection, wrapped or not, and nothing else', () => {
    expect(isDatabaseUnavailable(withCode('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED')], 'connect failed'))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new DrizzleQueryError('select 1', [], withCode('57P01')))).toBe(true);
    expect(isDatabaseUnavailable(new DrizzleQueryError('select 1', [], withCode('42P01')))).toBe(false);
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
    // The media store's network failure is not the database's.
    expect(isDatabaseUnavailable(Object.assign(withCode('ECONNREFUSED'), { $metadata: {} }))).toBe(false);
  });
});
