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
