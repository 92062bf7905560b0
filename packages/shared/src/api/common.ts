import { z } from 'zod';

/** Every error answer: `{ error: "human readable message" }` (400s also name the field). */
export const errorResponse = z.object({ error: z.string(), field: z.string().optional() });
export type ErrorResponse = z.infer<typeof errorResponse>;

/** Query-string boolean: accepts true/false/1/0. */
export const queryBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Query-string list of positive ids, comma-joined ("1,2,3"). */
export const idList = z
  .string()
  .regex(/^\d+(,\d+)*$/, 'must be comma-separated numbers')
  .transform((s) => s.split(',').map(Number));

/**
 * Paging inputs shared by every list call. `pageOffset` counts items to skip
 * (page n of size s starts at (n - 1) * s); `pageSize` is bounded server-side.
 */
export function pagingQuery(defaultSize: number, maxSize = 100) {
  return {
    pageSize: z.coerce.number().int().min(1).max(maxSize).default(defaultSize),
    pageOffset: z.coerce.number().int().min(0).default(0),
  };
}

export const userRef = z.object({ id: z.number().int(), username: z.string() });
export type UserRef = z.infer<typeof userRef>;

export const timezone = z
  .string()
  .min(1)
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone such as Europe/Berlin');
