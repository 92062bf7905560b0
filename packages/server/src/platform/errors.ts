import { DrizzleQueryError } from 'drizzle-orm/errors';

/** Typed errors that services throw; the app's error handler maps them to status codes. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}
export class Invalid extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}
/** A 400 about one input field: the answer names it, `{ error: "field: message", field }`. */
export class BadRequest extends AppError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(400, `${field}: ${message}`);
  }
}
export class Unauthorized extends AppError {
  constructor(message = 'You need to be logged in to do that.') {
    super(401, message);
  }
}
export class Forbidden extends AppError {
  constructor(message = 'You are not allowed to do that.') {
    super(403, message);
  }
}
export class NotFound extends AppError {
  constructor(message = 'Not found.') {
    super(404, message);
  }
}
export class Conflict extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}

/**
 * A 400 answer for a failed schema check: the first problem, prefixed with the field it is
 * about (`searchQuery: must not contain NUL characters`), whether it came from the query,
 * body, path or headers. A problem with the whole input names the input ("body").
 */
export function validationAnswer(err: {
  validation: { instancePath: string; message?: string }[];
  validationContext?: string;
}): { error: string; field: string } {
  const first = err.validation[0];
  const field =
    first.instancePath.replace(/^\//, '').replaceAll('/', '.') || err.validationContext || 'request';
  return { error: `${field}: ${first.message}`, field };
}

/**
 * A unique constraint the database refused: two requests raced past a service's "is it taken?"
 * check (two renames to one name at once). The loser hears what a slower request would have
 * heard, a 409, instead of a 500.
 */
export function conflictFromDatabase(err: Error): Conflict | undefined {
  if (!(err instanceof DrizzleQueryError)) return undefined;
  const code = (err.cause as { code?: string } | undefined)?.code;
  return code === '23505' ? new Conflict('That already exists. Please choose another name.') : undefined;
}

/**
 * Whether the database refused a query for the values it carried: a constraint (SQLSTATE class 23)
 * or a value a column cannot take (class 22), not a failure of the database itself.
 */
export function refusedForItsValues(err: unknown): boolean {
  if (!(err instanceof DrizzleQueryError)) return false;
  return /^2[23]/.test(String((err.cause as { code?: unknown } | undefined)?.code));
}

/**
 * What the log keeps of an unexpected error (pino fields). A failed query's message, stack head
 * and `params` carry the request's input (passwords, personal text), so a database error is
 * reduced to its class, the PostgreSQL code and message, and the call sites that ran the query.
 */
export function loggableError(err: Error): object {
  if (!(err instanceof DrizzleQueryError)) return { err };
  const cause = err.cause as (Error & { code?: string }) | undefined;
  return {
    dbError: {
      type: err.constructor.name,
      code: cause?.code,
      message: cause?.message ?? 'A database query failed.',
      at: err.stack
        ?.split('\n')
        .filter((line) => line.startsWith('    at '))
        .join('\n'),
    },
  };
}

/** Socket errors and PostgreSQL codes (admin shutdown, cannot connect now, connection failures) of a lost database. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

/** What node-postgres says when a connection ends, or when no connection came within the pool's timeout. */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/** The answer to a request that failed on our side (a 500). */
export const INTERNAL_ERROR = 'Something went wrong on our side. Please try again.';

export const DATABASE_UNAVAILABLE = 'The database is unavailable. Try again shortly.';

/**
 * Whether `err` says the database could not be reached, rather than that the query was wrong:
 * a failed query's cause, or the error of a connection the pool could not open (a transaction's
 * start is not wrapped by Drizzle). Such a request is answered 503 at once and may succeed when sent
 * again; the pool reconnects by itself. An S3 client's error (it carries `$metadata`) is the media
 * store's, never the database's.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof DrizzleQueryError) return isConnectionFailure(err.cause, 0);
  if (err && typeof err === 'object' && '$metadata' in err) return false;
  return isConnectionFailure(err, 0);
}

function isConnectionFailure(err: unknown, depth: number): boolean {
  if (!(err instanceof Error) || depth > 5) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  if (CONNECTION_MESSAGES.some((m) => err.message.includes(m))) return true;
  if (err instanceof AggregateError && err.errors.some((e) => isConnectionFailure(e, depth + 1))) return true;
  return isConnectionFailure(err.cause, depth + 1);
}
