import { describe, expect, it } from 'vitest';
import { isValidUsername, USERNAME_PATTERN, USERNAME_RULE_MESSAGE } from './username.ts';

describe('isValidUsername', () => {
  it('accepts letters, digits, underscores, hyphens and periods', () => {
    for (const name of ['abc', 'Alice', 'bob_99', 'x-y-z', 'first.last', '___', '...', '123', 'A1_-.z']) {
      expect(isValidUsername(name)).toBe(true);
    }
  });

  it('accepts 3 to 20 characters and nothing shorter or longer', () => {
    expect(isValidUsername('ab')).toBe(false);
    expect(isValidUsername('abc')).toBe(true);
    expect(isValidUsername('a'.repeat(20))).toBe(true);
    expect(isValidUsername('a'.repeat(21))).toBe(false);
    expect(isValidUsername('')).toBe(false);
  });

  it('rejects spaces, @, other punctuation and non-ASCII letters', () => {
    for (const name of [
      'with space',
      ' abc',
      'abc ',
      'me@site',
      'semi;colon',
      'slash/',
      'émile',
      'ünïcode',
      'tab\tx',
      'a+b',
    ]) {
      expect(isValidUsername(name)).toBe(false);
    }
  });

  it('rejects a trailing newline (the pattern is anchored without multiline)', () => {
    expect(isValidUsername('alice\n')).toBe(false);
    expect(USERNAME_PATTERN.multiline).toBe(false);
  });

  it('describes the rule in words', () => {
    expect(USERNAME_RULE_MESSAGE).toContain('3 to 20 characters');
  });
});
