import { describe, expect, it } from 'vitest';
import { dragPreviewOf } from './drag-preview.ts';
import { changeStrength, createEditorState, moveCues, resizeCue } from './model/cue-document.ts';

const cue = (time: number, stopTime: number, strength = 0.5) => ({ time, stopTime, strength });
/** Ids 1, 2, 3 in a 10-second file. */
const three = () => createEditorState([cue(1000, 2000), cue(3000, 4000, 0.8), cue(5000, 6000, 0.2)], 10_000);
/** The preview's cues as drawn: [time, stopTime, strength] with the offset added. */
const drawn = (p: ReturnType<ReturnType<typeof dragPreviewOf>>) =>
  p.cues.map((c) => [c.time + p.offsetMs, c.stopTime + p.offsetMs, c.strength]);
const spansOf = (ids: number[], s: ReturnType<typeof three>) =>
  s.doc.cues.filter((c) => ids.includes(c.id)).map((c) => [c.time, c.stopTime, c.strength]);

describe('dragPreviewOf', () => {
  it('moves the dragged cues by an offset, clamped and rounded as the drop moves them', () => {
    const s = three();
    const preview = dragPreviewOf(s.doc.cues, [1, 3], s.durationMs);
    for (const deltaMs of [250.4, -5000, 60_000]) {
      const p = preview({ kind: 'move', ids: [1, 3], deltaMs });
      expect(p.hidden).toEqual(new Set([1, 3]));
      // Cue 2 stays: the lane under the moved cues is cleared, as the drop cuts what they land on.
      expect(p.covers).toBe(true);
      expect(p.everything).toBe(false);
      // The same cue objects, drawn shifted: no copies per pointer move.
      expect(p.cues[0]).toBe(s.doc.cues[0]);
      expect(drawn(p)).toEqual(spansOf([1, 3], moveCues(s, [1, 3], deltaMs)));
    }
  });

  it('resizes and changes strength as the drop does', () => {
    const s = three();
    const resize = dragPreviewOf(s.doc.cues, [2], s.durationMs);
    for (const toMs of [3500, 2000, 3995, 99_000]) {
      const p = resize({ kind: 'resize', id: 2, edge: 'stop', toMs });
      // Drawn over its neighbours, which the drop trims.
      expect(drawn(p)).toEqual(
        [resizeCue(s, 2, 'stop', toMs).doc.cues.find((c) => c.id === 2)].map((c) => [
          c?.time,
          c?.stopTime,
          c?.strength,
        ]),
      );
    }
    const strength = dragPreviewOf(s.doc.cues, [2, 3], s.durationMs);
    const p = strength({ kind: 'strength', ids: [2, 3], delta: 0.256 });
    expect(p.covers).toBe(false);
    expect(drawn(p)).toEqual(spansOf([2, 3], changeStrength(s, [2, 3], 0.256)));
  });

  it('covers nothing when every cue is dragged', () => {
    const s = three();
    const p = dragPreviewOf(
      s.doc.cues,
      [1, 2, 3],
      s.durationMs,
    )({ kind: 'move', ids: [1, 2, 3], deltaMs: 500 });
    expect(p).toMatchObject({ everything: true, covers: false, offsetMs: 500 });
  });

  it('previews nothing for cues no longer in the document', () => {
    const s = three();
    const p = dragPreviewOf(s.doc.cues, [42], s.durationMs)({ kind: 'move', ids: [42], deltaMs: 100 });
    expect(p.cues).toEqual([]);
  });
});
