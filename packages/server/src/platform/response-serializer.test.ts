import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializerCompiler } from './response-serializer.ts';

const item = z.object({
  id: z.number().int(),
  name: z.string(),
  ratio: z.number().nullable(),
  url: z.string().nullable(),
  owner: z.object({ id: z.number().int(), username: z.string() }).nullable(),
  tags: z.array(z.object({ id: z.number().int(), name: z.string() })),
  kind: z.enum(['audio', 'music']),
  note: z.string().optional(),
});
const list = z.object({ items: z.array(item), totalItems: z.number().int() });

const data = {
  items: [
    {
      id: 1,
      name: 'Deep "Velvet" Spiral \u2028 ✓',
      ratio: 66.66666666666667,
      url: null,
      owner: { id: 3, username: 'luna' },
      tags: [{ id: 2, name: 'sleep' }],
      kind: 'audio',
    },
    {
      id: 2,
      name: '',
      ratio: null,
      url: '/media/a?exp=1&sig=b',
      owner: null,
      tags: [],
      kind: 'music',
      note: 'n',
    },
  ],
  totalItems: 2,
};

const route = (schema: z.ZodType) => ({ schema, method: 'GET', url: '/x', httpStatus: '200' });

describe('responseSerializerCompiler', () => {
  const fast = responseSerializerCompiler({ validate: false });
  const checked = responseSerializerCompiler({ validate: true });

  it('writes the same JSON as zod for objects, arrays, nullables, enums and optionals', () => {
    expect(fast(route(list))(data)).toBe(zodSerializerCompiler(route(list))(data));
    expect(JSON.parse(fast(route(list))(data))).toEqual(data);
  });

  it('never writes properties the schema does not name', () => {
    const withExtras = {
      ...data,
      secret: 'top',
      items: [{ ...data.items[0], passwordHash: 'x', owner: { id: 3, username: 'luna', email: 'e' } }],
    };
    const json = fast(route(list))(withExtras);
    expect(json).not.toMatch(/secret|passwordHash|email/);
    expect(JSON.parse(json).items[0].owner).toEqual({ id: 3, username: 'luna' });
  });

  it('validates against the zod schema when asked (tests and development)', () => {
    const broken = { ...data, totalItems: 'two' };
    expect(() => checked(route(list))(broken)).toThrow("Response doesn't match the schema");
    expect(checked(route(list))(data)).toBe(fast(route(list))(data));
  });

  it('keeps zod for unions, so a branch is never guessed', () => {
    const union = z.object({
      user: z
        .union([z.object({ id: z.number(), email: z.string() }), z.object({ id: z.number() })])
        .nullable(),
    });
    const value = { user: { id: 1 } };
    expect(fast(route(union))(value)).toBe(zodSerializerCompiler(route(union))(value));
    expect(() => fast(route(union))({ user: { id: 'one' } })).toThrow();
  });
});
