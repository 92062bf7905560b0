import { z } from 'zod';
import { INT_MAX } from '../domain/limits.ts';

/** Every error answer: `{ error: "human readable message" }` (400s also name the field). */
export const errorResponse = z.object({ error: z.string(), field: z.string().optional() });
export type ErrorResponse = z.infer<typeof errorResponse>;

/** Query-string boolean: accepts true/false/1/0. */
export const queryBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/**
 * Text of at most `max` characters (`tooLong` says so otherwise) without NUL (U+0000), which PostgreSQL text cannot hold.
 * Chain `.trim()`, `.min()` and the like after it.
 */
export function text(max: number, tooLong = `must be at most ${max} characters`) {
  return z
    .string()
    .max(max, tooLong)
    .refine((s) => !s.includes('\0'), 'must not contain NUL characters');
}

/** A whole number that fits an integer column, from a JSON body. */
export function int(min = 0, max = INT_MAX) {
  return z.number().int().min(min).max(max);
}

/** A whole number that fits an integer column, from a query string. */
export function queryInt(min = 0, max = INT_MAX) {
  return z.coerce.number().int().min(min).max(max);
}

/** A row id in a JSON body: 1 to 2147483647. */
export const id = int(1);

/** A row id in a query string: 1 to 2147483647. */
export const queryId = queryInt(1);

/** Query-string list of at most `maxCount` row ids, comma-joined ("1,2,3"). */
export function idList(maxCount = 100) {
  return z
    .string()
    .max(maxCount * 11, `must list at most ${maxCount} ids`)
    .regex(/^\d+(,\d+)*$/, 'must be comma-separated numbers')
    .transform((s) => s.split(',').map(Number))
    .refine((ids) => ids.length <= maxCount, `must list at most ${maxCount} ids`)
    .refine((ids) => ids.every((n) => n >= 1 && n <= INT_MAX), `each id must be between 1 and ${INT_MAX}`);
}

/**
 * Paging inputs shared by every list call. `pageOffset` counts items to skip
 * (page n of size s starts at (n - 1) * s); `pageSize` is bounded server-side.
 */
export function pagingQuery(defaultSize: number, maxSize = 100) {
  return {
    pageSize: queryInt(1, maxSize).default(defaultSize),
    pageOffset: queryInt(0).default(0),
  };
}

export const userRef = z.object({ id: z.number().int(), username: z.string() });
export type UserRef = z.infer<typeof userRef>;

export const timezone = text(64)
  .min(1)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone such as Europe/Berlin');
