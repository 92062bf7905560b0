import { describe, expect, it } from 'vitest';
import { exportCueFile, exportFileName, exportFunscript, formatOfFileName, importCues } from './cue-formats';

const cues = [
  { time: 0, stopTime: 500, strength: 0.25 },
  { time: 500, stopTime: 1500, strength: 1 },
  { time: 3000, stopTime: 9000, strength: 0.4 },
  { time: 9100, stopTime: 9110, strength: 0.05 },
];

describe('formatOfFileName', () => {
  it('tells a Funscript by its extension', () => {
    expect(formatOfFileName('song.funscript')).toBe('funscript');
    expect(formatOfFileName('SONG.FUNSCRIPT')).toBe('funscript');
    expect(formatOfFileName('song.json')).toBe('cues');
    expect(formatOfFileName('cues')).toBe('cues');
  });
});

describe('Mesmer cue files', () => {
  it('round-trips exactly', () => {
    const text = exportCueFile(cues);
    expect(JSON.parse(text)).toEqual(cues);
    expect(importCues(text)).toEqual({ ok: true, value: cues });
    expect(importCues(text, 'cues')).toEqual({ ok: true, value: cues });
  });

  it('writes only the three fields', () => {
    expect(exportCueFile([{ id: 7, time: 1, stopTime: 2, strength: 0.5 } as never])).toBe(
      '[{"time":1,"stopTime":2,"strength":0.5}]',
    );
  });

  it('refuses with the upload messages', () => {
    expect(importCues('[{"time": 5, "stopTime": 2, "strength": 1}]')).toEqual({
      ok: false,
      error: 'Cue 1: stopTime must be a number after time.',
    });
    expect(importCues('[]')).toEqual({ ok: false, error: 'The cue file has no cues.' });
    expect(importCues('{oops')).toEqual({ ok: false, error: 'The file is not valid JSON.' });
    expect(importCues('{"actions": []}', 'cues')).toEqual({
      ok: false,
      error: 'A cue file must be a JSON list of {time, stopTime, strength}.',
    });
  });
});

describe('Funscript', () => {
  it('round-trips the cues', () => {
    const text = exportFunscript(cues);
    expect(text.ok).toBe(true);
    if (!text.ok) return;
    const script = JSON.parse(text.value);
    expect(script).toMatchObject({ version: '1.0', inverted: false, range: 100 });
    expect(importCues(text.value)).toEqual({ ok: true, value: cues });
    expect(importCues(text.value, 'funscript')).toEqual({ ok: true, value: cues });
  });

  it('says when there is nothing to export', () => {
    expect(exportFunscript([])).toEqual({
      ok: false,
      error: 'There are no cues with a strength above 0 to export.',
    });
  });

  it('refuses with the upload messages', () => {
    expect(importCues('{"actions": [{"at": 0, "pos": 0}]}')).toEqual({
      ok: false,
      error: 'A funscript needs at least two actions.',
    });
  });
});

describe('exportFileName', () => {
  it('names the download after the file, without path characters', () => {
    expect(exportFileName('Deep Trance', 'funscript')).toBe('Deep Trance.funscript');
    expect(exportFileName('a/b:c', 'cues')).toBe('a b c.cues.json');
    expect(exportFileName('  ', 'cues')).toBe('cues.cues.json');
    expect(exportFileName('x'.repeat(300), 'cues')).toBe(`${'x'.repeat(100)}.cues.json`);
  });
});
