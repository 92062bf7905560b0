import { ApiError } from '../../lib/api-client.ts';

/** The spec's message when required fields of the login and sign-up forms are empty. */
export const FILL_HIGHLIGHTED = 'Please fill out all highlighted fields.';
/** The spec's message when fields of the password reset forms are empty. */
export const FILL_ALL = 'Please fill out all of the fields.';

/** Names of the fields left empty (whitespace counts as empty). */
export function emptyFields<K extends string>(values: Record<K, string>): Set<K> {
  return new Set((Object.keys(values) as K[]).filter((k) => values[k].trim() === ''));
}

/** The server's message without the "<field>: " prefix validation errors carry. */
export function serverMessage(err: unknown): string {
  if (!(err instanceof ApiError)) return 'Something went wrong. Please try again.';
  return err.field && err.message.startsWith(`${err.field}: `)
    ? err.message.slice(err.field.length + 2)
    : err.message;
}
