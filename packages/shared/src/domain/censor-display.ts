import { censorTrigger } from './censor.ts';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Censors every whole-word occurrence of the given trigger names inside a text
 * (a file or playlist name), case-insensitively, the way censorTrigger censors a
 * trigger ("Good Girl Bliss" with trigger "good girl" → "G**d G**l Bliss").
 * Underscores in names count as spaces.
 */
export function censorTriggerWords(text: string, triggerNames: readonly string[]): string {
  const names = triggerNames
    .map((n) => n.replace(/_/g, ' ').trim())
    .filter((n) => n.length > 0)
    .sort((a, b) => b.length - a.length)
    .map((n) => escapeRegExp(n).replace(/ +/g, '[\\s_]+'));
  if (names.length === 0) return text;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${names.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  return text.replace(pattern, (match) => censorTrigger(match) ?? match);
}
