/**
 * fast-check arbitraries for API requests, from the route contract's zod schemas (zod 4): values the
 * schema accepts, near misses (just past a bound, the wrong type) and hostile values (huge strings,
 * NUL bytes, deep JSON, SQL and path fragments, extreme numbers), mixed field by field so that a
 * request is mostly valid with a few bad parts — the shape that reaches deepest into a handler.
 */
import fc from 'fast-check';
import type { z } from 'zod';

type Def = {
  type: string;
  coerce?: boolean;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  valueType?: z.ZodType;
  getter?: () => z.ZodType;
};
type Bounds = {
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  pattern?: RegExp;
};
type CheckDef = {
  check: string;
  format?: string;
  value?: number | bigint;
  inclusive?: boolean;
  minimum?: number;
  maximum?: number;
  length?: number;
  pattern?: RegExp;
};

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The bounds a schema's checks set (zod 4 keeps them as check objects on the definition). */
function boundsOf(schema: z.ZodType): Bounds {
  const checks = ((defOf(schema) as Def & { checks?: { _zod: { def: CheckDef } }[] }).checks ?? []).map(
    (c) => c._zod.def,
  );
  const out: Bounds = { format: (defOf(schema) as Def & { format?: string }).format };
  for (const c of checks) {
    if (c.check === 'number_format' || c.check === 'string_format') out.format = c.format ?? out.format;
    if (c.check === 'string_format' && c.format === 'regex' && c.pattern instanceof RegExp)
      out.pattern = c.pattern;
    if (c.check === 'greater_than') out.minimum = Number(c.value) + (c.inclusive ? 0 : 1);
    if (c.check === 'less_than') out.maximum = Number(c.value) - (c.inclusive ? 0 : 1);
    if (c.check === 'max_length') out.maxLength = c.maximum;
    if (c.check === 'min_length') out.minLength = c.minimum;
    if (c.check === 'length_equals') out.minLength = out.maxLength = c.length;
  }
  return out;
}

/** Values no schema in this API should accept and none may turn into a 500. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'a\0b',
    '\0',
    "' OR '1'='1",
    "'; DROP TABLE users; --",
    '1; SELECT pg_sleep(1)',
    '../../../../etc/passwd',
    '..%2f..%2fetc%2fpasswd',
    '%00',
    '%',
    '\\',
    '<script>alert(1)</script>',
    'javascript:alert(1)',
    '\u202e\u200b\ud83d\ude00',
    '\ud800',
    'NaN',
    'Infinity',
    '-0',
    '1e309',
    '0x10',
    '9'.repeat(400),
    'a'.repeat(70_000),
    -1,
    0,
    -2_147_483_649,
    2_147_483_648,
    Number.MAX_SAFE_INTEGER + 2,
    1e308,
    -1e308,
    0.5,
    true,
    false,
    null,
    [],
    {},
    [[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]],
    { __proto__: { admin: true } },
    { constructor: { prototype: { admin: true } } },
    Array.from({ length: 2_000 }, (_, i) => i),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 4 }),
);

/** 'valid': only what the schema accepts (reaches the handler's logic); 'mixed': with near misses and hostile fields. */
export type Mode = 'valid' | 'mixed';

function numberArbitrary(bag: Bounds, mode: Mode): fc.Arbitrary<number> {
  const int = bag.format === 'safeint' || bag.format === 'int32';
  const min = bag.minimum !== undefined ? Number(bag.minimum) : int ? -2_147_483_648 : -1e9;
  const max = bag.maximum !== undefined ? Number(bag.maximum) : int ? 2_147_483_647 : 1e9;
  const valid = int
    ? fc.oneof(
        // Small ones find the rows a test made; the rest of the range finds none.
        fc.integer({ min: Math.max(min, 0), max: Math.min(max, 12) }),
        fc.integer({
          min: Math.max(min, Number.MIN_SAFE_INTEGER),
          max: Math.min(max, Number.MAX_SAFE_INTEGER),
        }),
      )
    : fc.double({ min, max, noNaN: true });
  if (mode === 'valid') return valid;
  // Just past each bound, and a fraction where a whole number is wanted.
  return fc.oneof({ weight: 4, arbitrary: valid }, fc.constantFrom(min - 1, max + 1, int ? min + 0.5 : min));
}

function stringArbitrary(bag: Bounds, mode: Mode): fc.Arbitrary<string> {
  const maxLength = bag.maxLength ?? 60;
  const minLength = bag.minLength ?? 0;
  const or = (valid: fc.Arbitrary<string>, miss: string) =>
    mode === 'valid' ? valid : fc.oneof({ weight: 4, arbitrary: valid }, fc.constant(miss));
  if (bag.format === 'uuid' || bag.format === 'guid') return or(fc.uuid(), 'not-a-uuid');
  if (bag.format === 'email') return or(fc.emailAddress(), 'not an address');
  if (bag.format === 'url') return or(fc.webUrl(), 'javascript:alert(1)');
  if (bag.pattern) return or(fc.stringMatching(bag.pattern), '\u0000 not matching');
  const free = fc
    .string({ minLength, maxLength: Math.min(maxLength, 80), unit: 'grapheme' })
    .filter((v) => !v.includes('\0'));
  // Strings that refinements the generator cannot see often want: numbers and comma-joined id lists.
  const numeric = fc.oneof(
    fc.integer({ min: 0, max: 12 }).map(String),
    fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 4 }).map((ids) => ids.join(',')),
  );
  return or(fc.oneof({ weight: 3, arbitrary: free }, numeric), 'x'.repeat(maxLength + 1));
}

/** Values for `schema`: mostly what it accepts, sometimes what it does not. */
export function valueFor(schema: z.ZodType, mode: Mode, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 8) return fc.constant(null);
  const def = defOf(schema);
  const bag = boundsOf(schema);
  const inner = (s: z.ZodType | undefined) => (s ? valueFor(s, mode, depth + 1) : fc.constant(undefined));
  switch (def.type) {
    case 'string':
      return stringArbitrary(bag, mode);
    case 'number':
      return numberArbitrary(bag, mode);
    case 'bigint':
      return fc.bigInt().map(String);
    case 'boolean':
      return fc.boolean();
    case 'literal':
      return fc.constantFrom(...(def.values ?? [null]));
    case 'enum': {
      const valid = fc.constantFrom(...Object.values(def.entries ?? { x: 'x' }));
      return mode === 'valid'
        ? valid
        : fc.oneof({ weight: 4, arbitrary: valid }, fc.constant('not-one-of-them'));
    }
    case 'null':
      return fc.constant(null);
    case 'optional':
      return fc.option(inner(def.innerType), { nil: undefined, freq: 4 });
    case 'nullable':
      return fc.option(inner(def.innerType), { nil: null, freq: 4 });
    case 'default':
    case 'prefault':
    case 'catch':
    case 'nonoptional':
    case 'readonly':
      return inner(def.innerType);
    case 'pipe':
      return inner(def.in);
    case 'lazy':
      return def.getter ? inner(def.getter()) : fc.constant(null);
    case 'array':
      return fc.array(inner(def.element), {
        maxLength: Math.min(bag.maximum !== undefined ? Number(bag.maximum) + 1 : 5, 12),
      });
    case 'union':
      return fc.oneof(...(def.options ?? []).map((o) => inner(o)));
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 10 }), inner(def.valueType), { maxKeys: 4 });
    case 'object': {
      const shape = def.shape ?? {};
      const fields: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, field] of Object.entries(shape)) {
        // Mixed: each field its own values mostly, a hostile one sometimes.
        // Valid: a value the field's schema refuses (a refinement the generator cannot see) is left out
        // when the field may be, so the rest of the request still reaches the handler.
        fields[key] =
          mode === 'valid'
            ? inner(field).map((v) =>
                field.safeParse(v).success || !field.safeParse(undefined).success ? v : undefined,
              )
            : fc.oneof({ weight: 5, arbitrary: inner(field) }, { weight: 1, arbitrary: hostileValue });
      }
      return fc.record(fields, { requiredKeys: [] });
    }
    default:
      return fc.anything({ maxDepth: 2 });
  }
}

/** A query string value as a client would send it (arrays comma-joined). */
function asQueryValue(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.map(String).join(',');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function toQuery(value: unknown): Record<string, string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    const s = asQueryValue(v);
    if (s !== undefined) out[key] = s;
  }
  return out;
}

/** A JSON body nested deeper than any parser should follow. */
export const deepJson = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
