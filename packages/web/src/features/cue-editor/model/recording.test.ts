import { describe, expect, it } from 'vitest';
import { canUndo, createEditorState, type EditorState, select, undo } from './cue-document';
import {
  DEFAULT_RECORDING_STRENGTH,
  finishRecording,
  pressKey,
  recordedCues,
  releaseKey,
  setRecordingStrength,
  startRecording,
  strengthForKey,
} from './recording';

const spans = (s: EditorState) => s.doc.cues.map((c) => [c.time, c.stopTime, c.strength]);
const cue = (time: number, stopTime: number, strength = 0.5) => ({ time, stopTime, strength });

describe('strengthForKey', () => {
  it('maps the number row to strengths', () => {
    expect(strengthForKey('1')).toBe(0.1);
    expect(strengthForKey('5')).toBe(0.5);
    expect(strengthForKey('9')).toBe(0.9);
    expect(strengthForKey('0')).toBe(1);
    expect(strengthForKey('a')).toBeNull();
    expect(strengthForKey('F1')).toBeNull();
    expect(strengthForKey('')).toBeNull();
  });
});

describe('recording', () => {
  it('lays down a cue from press to release at the current strength', () => {
    let rec = startRecording(1000);
    expect(rec.strength).toBe(DEFAULT_RECORDING_STRENGTH);
    rec = pressKey(rec, 1200.4);
    rec = releaseKey(rec, 1700);
    rec = pressKey(rec, 2000, 0.9);
    rec = releaseKey(rec, 2300);
    expect(rec.cues).toEqual([cue(1200, 1700), cue(2000, 2300, 0.9)]);
    expect(rec.held).toBeNull();
  });

  it('ignores a second press and a release without a press', () => {
    let rec = pressKey(startRecording(0), 100);
    expect(pressKey(rec, 200)).toBe(rec);
    rec = releaseKey(rec, 300);
    expect(releaseKey(rec, 400)).toBe(rec);
    expect(rec.cues).toEqual([cue(100, 300)]);
  });

  it('makes a tap at least 10 ms long', () => {
    const rec = releaseKey(pressKey(startRecording(0), 500), 502);
    expect(rec.cues).toEqual([cue(500, 510)]);
  });

  it('splits the held cue when the strength changes', () => {
    let rec = pressKey(startRecording(0, 0.3), 100);
    rec = setRecordingStrength(rec, 400, 0.8);
    rec = setRecordingStrength(rec, 600, 0.8);
    rec = releaseKey(rec, 900);
    expect(rec.cues).toEqual([cue(100, 400, 0.3), cue(400, 900, 0.8)]);
  });

  it('changes the strength of a just-pressed cue instead of splitting off a sliver', () => {
    let rec = pressKey(startRecording(0, 0.3), 100);
    rec = setRecordingStrength(rec, 105, 1);
    rec = releaseKey(rec, 300);
    expect(rec.cues).toEqual([cue(100, 300, 1)]);
  });

  it('sets the strength for the next press when no key is held, clamped', () => {
    let rec = setRecordingStrength(startRecording(0), 50, 4);
    rec = releaseKey(pressKey(rec, 100), 200);
    expect(rec.cues).toEqual([cue(100, 200, 1)]);
  });

  it('never goes back in time', () => {
    let rec = pressKey(startRecording(1000), 2000);
    rec = releaseKey(rec, 1500);
    expect(rec.cues).toEqual([cue(2000, 2010)]);
    rec = releaseKey(pressKey(rec, 1000), 2100);
    expect(rec.cues).toEqual([cue(2000, 2010), cue(2010, 2100)]);
  });

  it('shows the held cue growing', () => {
    const rec = pressKey(releaseKey(pressKey(startRecording(0), 100), 200), 300);
    expect(recordedCues(rec, 450)).toEqual([cue(100, 200), cue(300, 450)]);
    expect(recordedCues(rec, 300)).toEqual([cue(100, 200), cue(300, 301)]);
    expect(recordedCues(releaseKey(rec, 500), 9000)).toEqual([cue(100, 200), cue(300, 500)]);
  });
});

describe('finishRecording', () => {
  const existing = () =>
    select(createEditorState([cue(0, 1000, 0.1), cue(2000, 3000, 0.2), cue(4000, 6000, 0.3)], 10_000), [1]);

  it('replaces the cues inside the recorded span as one undo step, selecting the recorded ones', () => {
    let rec = startRecording(1500);
    rec = releaseKey(pressKey(rec, 1600, 0.9), 1800);
    rec = pressKey(rec, 3500, 0.7);
    const s = finishRecording(existing(), rec, 5000); // released at the finish
    expect(spans(s)).toEqual([
      [0, 1000, 0.1],
      [1600, 1800, 0.9],
      [3500, 5000, 0.7],
      [5000, 6000, 0.3],
    ]);
    expect([...s.selection]).toEqual(s.doc.cues.filter((c) => c.strength > 0.5).map((c) => c.id));
    expect(s.past).toHaveLength(1);
    expect(spans(undo(s))).toEqual(spans(existing()));
    expect(canUndo(undo(s))).toBe(false);
  });

  it('clears the span even when nothing was pressed (recording silence)', () => {
    const s = finishRecording(existing(), startRecording(1500), 3500);
    expect(spans(s)).toEqual([
      [0, 1000, 0.1],
      [4000, 6000, 0.3],
    ]);
  });

  it('cuts cues across the span ends', () => {
    const s = finishRecording(existing(), startRecording(500), 4500);
    expect(spans(s)).toEqual([
      [0, 500, 0.1],
      [4500, 6000, 0.3],
    ]);
  });

  it('keeps the recording within the file', () => {
    const rec = pressKey(startRecording(9000), 9500, 1);
    const s = finishRecording(createEditorState([], 10_000), rec, 10_400);
    expect(spans(s)).toEqual([[9500, 10_000, 1]]);
  });

  it('changes nothing for a recording of no time or over empty timeline with no presses', () => {
    const s = existing();
    expect(finishRecording(s, startRecording(2500), 2500)).toBe(s);
    expect(finishRecording(s, startRecording(7000), 9000)).toBe(s);
  });
});
