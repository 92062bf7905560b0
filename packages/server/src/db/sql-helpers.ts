/** `text` matched literally inside a LIKE/ILIKE pattern: its `\`, `%` and `_` escaped. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
