import { describe, expect, it } from 'vitest';
import { censorTriggerWords } from './censor-display.ts';

describe('censorTriggerWords', () => {
  it('keeps first and last letters of each trigger word and stars the middle', () => {
    expect(censorTriggerWords('Good Girl Bliss', ['good girl'])).toBe('G**d G**l Bliss');
  });

  it('matches case-insensitively and only whole words', () => {
    expect(censorTriggerWords('Sleep, sleepy SLEEP', ['sleep'])).toBe('S***p, sleepy S***P');
  });

  it('treats underscores in names as spaces and prefers the longest name', () => {
    expect(censorTriggerWords('Deep Sleep now', ['deep', 'deep_sleep'])).toBe('D**p S***p now');
  });

  it('leaves text alone without triggers or matches, and escapes special characters', () => {
    expect(censorTriggerWords('Relax', [])).toBe('Relax');
    expect(censorTriggerWords('Relax', ['sleep', ''])).toBe('Relax');
    expect(censorTriggerWords('Drop (x) now', ['(x)'])).toBe('Drop (x) now');
    expect(censorTriggerWords('Snap+Drop', ['snap+drop'])).toBe('S**p+D**p');
  });
});
