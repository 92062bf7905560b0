import { describe, expect, it } from 'vitest';
import {
  ATTACHMENT_TOO_LARGE_MESSAGE,
  checkCueFile,
  checkScript,
  MAX_ATTACHMENT_BYTES,
  MAX_CUES,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
  parseJson,
  storedKindOf,
} from './attachments.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('checkCueFile', () => {
  it('answers the cues in start order with only their three fields', () => {
    expect(
      checkCueFile([
        { time: 500, stopTime: 900, strength: 1, note: 'x' },
        { time: 0, stopTime: 100, strength: 0 },
      ]),
    ).toEqual({
      ok: true,
      value: [
        { time: 0, stopTime: 100, strength: 0 },
        { time: 500, stopTime: 900, strength: 1 },
      ],
    });
  });

  it('names the first bad entry', () => {
    const good = { time: 0, stopTime: 10, strength: 0.5 };
    expect(checkCueFile([good, { time: 20, stopTime: 20, strength: 0.5 }])).toEqual({
      ok: false,
      error: 'Cue 2: stopTime must be a number after time.',
    });
    expect(checkCueFile([good, good, { time: 0, stopTime: 10, strength: 1.5 }])).toEqual({
      ok: false,
      error: 'Cue 3: strength must be a number from 0 to 1.',
    });
    expect(checkCueFile([{ time: '0', stopTime: 10, strength: 1 }])).toEqual({
      ok: false,
      error: 'Cue 1: time must be a number of milliseconds ≥ 0.',
    });
    expect(checkCueFile([good, null])).toEqual({
      ok: false,
      error: 'Cue 2: must be an object {time, stopTime, strength}.',
    });
  });

  it('refuses what is not a non-empty list of at most MAX_CUES', () => {
    expect(checkCueFile({ cues: [] })).toMatchObject({
      ok: false,
      error: expect.stringContaining('JSON list'),
    });
    expect(checkCueFile([])).toEqual({ ok: false, error: 'The cue file has no cues.' });
    const many = Array.from({ length: MAX_CUES + 1 }, (_, i) => ({ time: i, stopTime: i + 1, strength: 1 }));
    expect(checkCueFile(many)).toEqual({ ok: false, error: `A cue file may have at most ${MAX_CUES} cues.` });
  });
});

describe('checkScript', () => {
  it('answers the text', () => {
    expect(checkScript(bytes('Relax… and breathe.'))).toEqual({ ok: true, value: 'Relax… and breathe.' });
  });

  it('refuses bytes that are not UTF-8, NUL characters and empty text', () => {
    expect(checkScript(new Uint8Array([0x66, 0xff, 0x66]))).toEqual({
      ok: false,
      error: 'The file is not UTF-8 text.',
    });
    expect(checkScript(bytes('a\0b'))).toEqual({ ok: false, error: 'The script contains NUL characters.' });
    expect(checkScript(bytes(' \n'))).toEqual({ ok: false, error: 'The script is empty.' });
  });
});

describe('parseJson and storedKindOf', () => {
  it('parses JSON or says it is not', () => {
    expect(parseJson('[1]')).toEqual({ ok: true, value: [1] });
    expect(parseJson('{')).toEqual({ ok: false, error: 'The file is not valid JSON.' });
  });

  it('refuses nesting past MAX_JSON_DEPTH before parsing, counting no brackets inside strings', () => {
    const deepError = { ok: false, error: 'The file nests lists or objects deeper than 64 levels.' };
    // The reported attack: millions of levels, refused at the 65th character.
    expect(parseJson('['.repeat(2_400_000) + ']'.repeat(2_400_000))).toEqual(deepError);
    expect(parseJson(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`)).toEqual(
      deepError,
    );
    const deepest = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(parseJson(deepest).ok).toBe(true);
    expect(nestsDeeperThan(deepest, MAX_JSON_DEPTH)).toBe(false);
    // Brackets and escaped quotes inside strings are text.
    const text = JSON.stringify([{ note: `${'['.repeat(500)}\\"{{{` }]);
    expect(parseJson(text)).toEqual({ ok: true, value: [{ note: `${'['.repeat(500)}\\"{{{` }] });
    // A sequence of shallow lists is not deep.
    expect(nestsDeeperThan('[]'.repeat(1000), 1)).toBe(false);
  });

  it('refuses text longer than an attachment may be', () => {
    expect(parseJson(`"${'a'.repeat(MAX_ATTACHMENT_BYTES)}"`)).toEqual({
      ok: false,
      error: ATTACHMENT_TOO_LARGE_MESSAGE,
    });
  });

  it('stores a Funscript as the haptics', () => {
    expect(storedKindOf('funscript')).toBe('haptics');
    expect(storedKindOf('haptics')).toBe('haptics');
    expect(storedKindOf('script')).toBe('script');
  });
});
