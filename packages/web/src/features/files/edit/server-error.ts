import { ApiError } from '../../../lib/api-client.ts';

/**
 * A refusal split as forms use it. The server names the field first ('fileType: must be …',
 * 'file: the file is empty.'): `field` is that name (to mark the input) and `reason` the rest as
 * a sentence, for a place where the field is plain already (an attachment's row).
 */
export function fieldError(err: Error): { field?: string; reason: string } {
  const named = err instanceof ApiError ? err.field : undefined;
  const match = /^([A-Za-z][\w.]*): (.+)$/s.exec(err.message);
  if (!match?.[1] || !match[2]) return { field: named, reason: err.message };
  const text = match[2];
  return { field: named ?? match[1], reason: text.charAt(0).toUpperCase() + text.slice(1) };
}
