/** A word: a run of letters or digits (any script). Spaces and punctuation stay as they are. */
const WORD = /[\p{L}\p{N}]+/gu;

function censorWord(word: string): string {
  const chars = Array.from(word);
  if (chars.length <= 2) return word;
  return chars[0] + '*'.repeat(chars.length - 2) + chars[chars.length - 1];
}

/**
 * Trigger censoring for users who turned on censorTriggers: in each word of the
 * trigger the first and last letters stay and the letters between become
 * asterisks ("Good Girl" → "G**d G**l"). Anything that is not a string gives null.
 */
export function censorTrigger(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  return text.replace(WORD, censorWord);
}
