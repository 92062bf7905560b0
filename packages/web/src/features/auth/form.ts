import { useState } from 'react';
import { ApiError } from '../../lib/api-client.ts';

/** The spec's message when required fields of the login and sign-up forms are empty. */
export const FILL_HIGHLIGHTED = 'Please fill out all highlighted fields.';
/** The spec's message when fields of the password reset forms are empty. */
export const FILL_ALL = 'Please fill out all of the fields.';

/** Names of the fields left empty (whitespace counts as empty). */
export function emptyFields<K extends string>(values: Record<K, string>): Set<K> {
  return new Set((Object.keys(values) as K[]).filter((k) => values[k].trim() === ''));
}

/**
 * The text fields of a login or sign-up form, all required: their values, which are
 * highlighted, and each field's TextField props; typing in a field takes its highlight off.
 */
export function useRequiredFields<K extends string>(initial: Record<K, string>) {
  const [values, setValues] = useState(initial);
  const [highlighted, setHighlighted] = useState(() => new Set<K>());

  const fieldProps = (field: K) => ({
    value: values[field],
    onChange: (value: string) => {
      setValues((v) => ({ ...v, [field]: value }));
      setHighlighted((h) => new Set([...h].filter((f) => f !== field)));
    },
    invalid: highlighted.has(field),
  });
  const highlight = (fields: readonly K[]) => setHighlighted(new Set(fields));
  /** Highlights the empty fields; true when every field is filled in. */
  const requireFilled = () => {
    const missing = emptyFields(values);
    if (missing.size > 0) setHighlighted(missing);
    return missing.size === 0;
  };
  return { values, fieldProps, highlight, requireFilled };
}

/** The server's message without the "<field>: " prefix validation errors carry. */
export function serverMessage(err: unknown): string {
  if (!(err instanceof ApiError)) return 'Something went wrong. Please try again.';
  return err.field && err.message.startsWith(`${err.field}: `)
    ? err.message.slice(err.field.length + 2)
    : err.message;
}
