import { describe, expect, it } from 'vitest';
import { censorTrigger } from './censor.ts';

describe('censorTrigger', () => {
  it('keeps the first and last letters and stars the middle', () => {
    expect(censorTrigger('Sleep')).toBe('S***p');
    expect(censorTrigger('obey')).toBe('o**y');
    expect(censorTrigger('cat')).toBe('c*t');
  });

  it('censors each word of a phrase and keeps the spacing', () => {
    expect(censorTrigger('Good Girl')).toBe('G**d G**l');
    expect(censorTrigger('deeper  and deeper')).toBe('d****r  a*d d****r');
    expect(censorTrigger(' drop ')).toBe(' d**p ');
  });

  it('leaves words of one or two letters alone', () => {
    expect(censorTrigger('I')).toBe('I');
    expect(censorTrigger('go to it')).toBe('go to it');
  });

  it('treats punctuation as a word boundary', () => {
    expect(censorTrigger('mind-melt')).toBe('m**d-m**t');
    expect(censorTrigger("don't stop!")).toBe("d*n't s**p!");
  });

  it('works letter by letter for accents and non-Latin scripts', () => {
    expect(censorTrigger('Schläfchen')).toBe('S********n');
    expect(censorTrigger('спать')).toBe('с***ь');
    expect(censorTrigger('😴sleep😴')).toBe('😴s***p😴');
  });

  it('counts digits as letters', () => {
    expect(censorTrigger('count 100')).toBe('c***t 1*0');
  });

  it('returns an empty string unchanged', () => {
    expect(censorTrigger('')).toBe('');
  });

  it('gives null for anything that is not a string', () => {
    for (const value of [null, undefined, 42, true, {}, ['sleep'], () => 'x']) {
      expect(censorTrigger(value)).toBeNull();
    }
  });
});
