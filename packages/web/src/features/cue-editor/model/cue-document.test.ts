import { describe, expect, it } from 'vitest';
import {
  addCue,
  canRedo,
  canUndo,
  changeStrength,
  clearSelection,
  copyCues,
  createEditorState,
  cutCues,
  documentCues,
  type EditorState,
  HISTORY_LIMIT,
  isDirty,
  markSaved,
  moveCues,
  nudgeCues,
  pasteCues,
  redo,
  removeCues,
  replaceAll,
  resizeCue,
  select,
  selectAll,
  selectedCues,
  selectInRange,
  setStrength,
  undo,
} from './cue-document';

/** [time, stopTime, strength] of each cue, in document order. */
const spans = (s: EditorState) => s.doc.cues.map((c) => [c.time, c.stopTime, c.strength]);
const ids = (s: EditorState) => s.doc.cues.map((c) => c.id);
const sel = (s: EditorState) => [...s.selection].sort((a, b) => a - b);
const cue = (time: number, stopTime: number, strength = 0.5) => ({ time, stopTime, strength });

/** Three cues, ids 1, 2, 3, in a 10-second file. */
const three = () => createEditorState([cue(1000, 2000), cue(3000, 4000, 0.8), cue(5000, 6000, 0.2)], 10_000);

describe('createEditorState', () => {
  it('sorts the cues, numbers them from 1 and starts clean', () => {
    const s = createEditorState([cue(3000, 4000, 0.8), cue(1000, 2000)], 10_000);
    expect(spans(s)).toEqual([
      [1000, 2000, 0.5],
      [3000, 4000, 0.8],
    ]);
    expect(ids(s)).toEqual([1, 2]);
    expect(s.doc.nextId).toBe(3);
    expect(sel(s)).toEqual([]);
    expect(canUndo(s)).toBe(false);
    expect(canRedo(s)).toBe(false);
    expect(isDirty(s)).toBe(false);
    expect(s.durationMs).toBe(10_000);
  });

  it('trims overlapping cues as playback plays them (the latest started wins)', () => {
    const s = createEditorState(
      [cue(0, 5000, 0.3), cue(1000, 2000, 0.9), cue(1500, 1800, 0.4), cue(1500, 1600, 0.6)],
      10_000,
    );
    // 0-5000 is cut at 1000; 1000-2000 at 1500; of the two starting at 1500 the later one in the list plays.
    expect(spans(s)).toEqual([
      [0, 1000, 0.3],
      [1000, 1500, 0.9],
      [1500, 1600, 0.6],
    ]);
  });

  it('keeps cues past the end and drops empty or broken ones', () => {
    const s = createEditorState([cue(9000, 12_000), cue(500, 500), cue(1, 2, Number.NaN)], 10_000);
    expect(spans(s)).toEqual([[9000, 12_000, 0.5]]);
  });

  it('gives the cues without ids for saving', () => {
    expect(documentCues(three())).toEqual([cue(1000, 2000), cue(3000, 4000, 0.8), cue(5000, 6000, 0.2)]);
  });
});

describe('addCue', () => {
  it('inserts in time order, selects the new cue alone and is one undo step', () => {
    const s = addCue(select(three(), [1]), 2500.4, 2799.6, 0.333);
    expect(spans(s)).toEqual([
      [1000, 2000, 0.5],
      [2500, 2800, 0.33],
      [3000, 4000, 0.8],
      [5000, 6000, 0.2],
    ]);
    expect(ids(s)).toEqual([1, 4, 2, 3]);
    expect(sel(s)).toEqual([4]);
    expect(s.past).toHaveLength(1);
    expect(isDirty(s)).toBe(true);
    expect(spans(undo(s))).toEqual(spans(three()));
  });

  it('takes the ends in either order, clamps to the file and keeps the minimum length', () => {
    const empty = createEditorState([], 10_000);
    expect(spans(addCue(empty, 800, 200, 2))).toEqual([[200, 800, 1]]);
    expect(spans(addCue(empty, -50, 100, -1))).toEqual([[0, 100, 0]]);
    expect(spans(addCue(empty, 9995, 12_000, 0.5))).toEqual([[9990, 10_000, 0.5]]);
    expect(spans(addCue(empty, 400, 402, 0.5))).toEqual([[400, 410, 0.5]]);
  });

  it('splits a cue it lands inside; the second piece gets a new id', () => {
    const s = addCue(three(), 3400, 3600, 1);
    expect(spans(s)).toEqual([
      [1000, 2000, 0.5],
      [3000, 3400, 0.8],
      [3400, 3600, 1],
      [3600, 4000, 0.8],
      [5000, 6000, 0.2],
    ]);
    expect(ids(s)).toEqual([1, 2, 4, 5, 3]);
    expect(s.doc.nextId).toBe(6);
  });

  it('trims the cues it overlaps and drops pieces shorter than 10 ms', () => {
    const s = addCue(three(), 1995, 3005, 1);
    expect(spans(s)).toEqual([
      [1000, 1995, 0.5],
      [1995, 3005, 1],
      [3005, 4000, 0.8],
      [5000, 6000, 0.2],
    ]);
    const t = addCue(three(), 1005, 3995, 1);
    expect(spans(t)).toEqual([
      [1005, 3995, 1],
      [5000, 6000, 0.2],
    ]);
  });
});

describe('moveCues', () => {
  it('moves the cues as a group, keeping their spacing', () => {
    const s = moveCues(three(), [1, 2], 500);
    expect(spans(s)).toEqual([
      [1500, 2500, 0.5],
      [3500, 4500, 0.8],
      [5000, 6000, 0.2],
    ]);
    expect(s.past).toHaveLength(1);
  });

  it('clamps the offset so the group stays within the file', () => {
    expect(spans(moveCues(three(), [1, 3], -5000))).toEqual([
      [0, 1000, 0.5],
      [3000, 4000, 0.8],
      [4000, 5000, 0.2],
    ]);
    expect(spans(moveCues(three(), [1, 3], 60_000))).toEqual([
      [3000, 4000, 0.8],
      [5000, 6000, 0.5],
      [9000, 10_000, 0.2],
    ]);
  });

  it('changes nothing for no offset, unknown ids or a clamped-away move', () => {
    const s = three();
    expect(moveCues(s, [1], 0)).toBe(s);
    expect(moveCues(s, [99], 100)).toBe(s);
    expect(moveCues(s, [], 100)).toBe(s);
    const atStart = createEditorState([cue(0, 100)], 1000);
    expect(moveCues(atStart, [1], -50)).toBe(atStart);
  });

  it('rounds to whole milliseconds', () => {
    expect(spans(moveCues(three(), [1], 10.6))[0]).toEqual([1011, 2011, 0.5]);
  });

  it('wins over the cues it lands on, which are cut around it', () => {
    const s = moveCues(three(), [1], 2500); // 3500-4500 onto 3000-4000
    expect(spans(s)).toEqual([
      [3000, 3500, 0.8],
      [3500, 4500, 0.5],
      [5000, 6000, 0.2],
    ]);
    expect(ids(s)).toEqual([2, 1, 3]);
  });

  it('drops a cue it covers completely from the selection', () => {
    const s = moveCues(select(three(), [1, 2], 'replace'), [1], 2000); // 3000-4000 covers cue 2 exactly
    expect(ids(s)).toEqual([1, 3]);
    expect(sel(s)).toEqual([1]);
  });

  it('moves a group already past the end only back', () => {
    const s = createEditorState([cue(9000, 12_000)], 10_000);
    expect(moveCues(s, [1], 100)).toBe(s);
    expect(spans(moveCues(s, [1], -100))).toEqual([[8900, 11_900, 0.5]]);
  });

  it('moves 5,000 selected cues of 5,000 correctly', () => {
    const many = Array.from({ length: 5000 }, (_, i) => cue(i * 100, i * 100 + 50, (i % 100) / 100));
    const s = selectAll(createEditorState(many, 600_000));
    const moved = moveCues(s, s.selection, 1234);
    expect(moved.doc.cues).toHaveLength(5000);
    moved.doc.cues.forEach((c, i) => {
      expect(c).toEqual({
        id: i + 1,
        time: i * 100 + 1234,
        stopTime: i * 100 + 1284,
        strength: (i % 100) / 100,
      });
    });
    expect(moved.selection.size).toBe(5000);
    expect(undo(moved).doc).toBe(s.doc);
  });
});

describe('nudgeCues', () => {
  it('moves by a few milliseconds, one undo step each', () => {
    const s = nudgeCues(nudgeCues(three(), [2], 10), [2], 10);
    expect(spans(s)[1]).toEqual([3020, 4020, 0.8]);
    expect(s.past).toHaveLength(2);
    expect(spans(undo(s))[1]).toEqual([3010, 4010, 0.8]);
  });
});

describe('resizeCue', () => {
  it('moves the start or the stop edge', () => {
    expect(spans(resizeCue(three(), 1, 'start', 800))[0]).toEqual([800, 2000, 0.5]);
    expect(spans(resizeCue(three(), 1, 'stop', 2500.2))[0]).toEqual([1000, 2500, 0.5]);
  });

  it('keeps the cue at least 10 ms long and within the file', () => {
    expect(spans(resizeCue(three(), 1, 'start', 5000))[0]).toEqual([1990, 2000, 0.5]);
    expect(spans(resizeCue(three(), 1, 'stop', 0))[0]).toEqual([1000, 1010, 0.5]);
    expect(spans(resizeCue(three(), 1, 'start', -300))[0]).toEqual([0, 2000, 0.5]);
    expect(spans(resizeCue(three(), 3, 'stop', 99_000))[2]).toEqual([5000, 10_000, 0.2]);
  });

  it('trims the neighbour it grows over', () => {
    expect(spans(resizeCue(three(), 1, 'stop', 3500))).toEqual([
      [1000, 3500, 0.5],
      [3500, 4000, 0.8],
      [5000, 6000, 0.2],
    ]);
    // Growing over a whole neighbour removes it.
    expect(spans(resizeCue(three(), 3, 'start', 2500))).toEqual([
      [1000, 2000, 0.5],
      [2500, 6000, 0.2],
    ]);
  });

  it('changes nothing for an unknown cue or the same edge', () => {
    const s = three();
    expect(resizeCue(s, 99, 'start', 0)).toBe(s);
    expect(resizeCue(s, 1, 'start', 1000)).toBe(s);
  });
});

describe('setStrength and changeStrength', () => {
  it('sets the strength of several cues, clamped and rounded', () => {
    expect(spans(setStrength(three(), [1, 3], 0.756)).map((c) => c[2])).toEqual([0.76, 0.8, 0.76]);
    expect(spans(setStrength(three(), [1], 7)).map((c) => c[2])).toEqual([1, 0.8, 0.2]);
    expect(spans(setStrength(three(), [1], -1)).map((c) => c[2])).toEqual([0, 0.8, 0.2]);
  });

  it('changes nothing when the strength is the same or not a number', () => {
    const s = three();
    expect(setStrength(s, [2], 0.8)).toBe(s);
    expect(setStrength(s, [1], Number.NaN)).toBe(s);
    expect(setStrength(s, [42], 0.1)).toBe(s);
  });

  it('changes each strength by a step, clamped', () => {
    const s = changeStrength(three(), [1, 2, 3], 0.25);
    expect(spans(s).map((c) => c[2])).toEqual([0.75, 1, 0.45]);
    expect(s.past).toHaveLength(1);
    expect(spans(changeStrength(three(), [3], -0.5))[2][2]).toBe(0);
  });
});

describe('removeCues', () => {
  it('deletes the cues and drops them from the selection; undo brings them back', () => {
    const s = removeCues(select(three(), [1, 2]), [2]);
    expect(ids(s)).toEqual([1, 3]);
    expect(sel(s)).toEqual([1]);
    expect(ids(undo(s))).toEqual([1, 2, 3]);
  });

  it('changes nothing for unknown ids', () => {
    const s = three();
    expect(removeCues(s, [7])).toBe(s);
  });
});

describe('copy, cut and paste', () => {
  it('copies relative to the first copied start, without an undo step', () => {
    const s = copyCues(three(), [3, 2]);
    expect(s.clipboard).toEqual([cue(0, 1000, 0.8), cue(2000, 3000, 0.2)]);
    expect(s.doc).toEqual(three().doc);
    expect(s.past).toHaveLength(0);
    expect(copyCues(s, [])).toBe(s);
  });

  /** The three cues with copies of the given ones pasted at atMs. */
  const pastedAt = (copied: number[], atMs: number) => pasteCues(copyCues(three(), copied), atMs);
  /** Cues 1 and 2 pasted at 7 s: after the three, at 7-8 s and 9-10 s. */
  const pastedOneAndTwo = [...spans(three()), [7000, 8000, 0.5], [9000, 10_000, 0.8]];

  it('pastes at a time with new ids, selected, as one undo step', () => {
    const s = pastedAt([1, 2], 7000);
    expect(spans(s)).toEqual(pastedOneAndTwo);
    expect(ids(s)).toEqual([1, 2, 3, 4, 5]);
    expect(sel(s)).toEqual([4, 5]);
    expect(s.past).toHaveLength(1);
  });

  it('moves the paste back so it ends within the file, and wins over what it lands on', () => {
    expect(spans(pastedAt([1, 2], 9500))).toEqual(pastedOneAndTwo);
    const over = pastedAt([1], 3500);
    expect(spans(over)).toEqual([
      [1000, 2000, 0.5],
      [3000, 3500, 0.8],
      [3500, 4500, 0.5],
      [5000, 6000, 0.2],
    ]);
  });

  it('cuts a clipboard longer than the file at its end', () => {
    const s = createEditorState([cue(0, 1000), cue(2000, 3000, 0.9)], 10_000);
    const short = { ...createEditorState([], 2500), clipboard: copyCues(s, [1, 2]).clipboard };
    expect(spans(pasteCues(short, 400))).toEqual([
      [0, 1000, 0.5],
      [2000, 2500, 0.9],
    ]);
  });

  it('changes nothing with an empty clipboard', () => {
    const s = three();
    expect(pasteCues(s, 100)).toBe(s);
  });

  it('cut copies and deletes', () => {
    const s = cutCues(three(), [2]);
    expect(ids(s)).toEqual([1, 3]);
    expect(s.clipboard).toEqual([cue(0, 1000, 0.8)]);
    expect(ids(pasteCues(s, 8000))).toEqual([1, 3, 4]);
  });
});

describe('selection', () => {
  it('replaces, adds or toggles, ignoring unknown ids, without an undo step', () => {
    const s = select(three(), [1, 99]);
    expect(sel(s)).toEqual([1]);
    expect(sel(select(s, [2], 'add'))).toEqual([1, 2]);
    expect(sel(select(s, [1, 3], 'toggle'))).toEqual([3]);
    expect(sel(select(s, [3]))).toEqual([3]);
    expect(s.past).toHaveLength(0);
    expect(selectedCues(select(s, [3, 1])).map((c) => c.id)).toEqual([1, 3]);
  });

  it('selects the cues overlapping a range, its ends in any order', () => {
    expect(sel(selectInRange(three(), 1999, 3001))).toEqual([1, 2]);
    expect(sel(selectInRange(three(), 5500, 2000))).toEqual([2, 3]);
    expect(sel(selectInRange(three(), 2000, 3000))).toEqual([]);
    expect(sel(selectInRange(select(three(), [3]), 0, 1500, 'add'))).toEqual([1, 3]);
  });

  it('selects all and clears', () => {
    const all = selectAll(three());
    expect(sel(all)).toEqual([1, 2, 3]);
    expect(sel(clearSelection(all))).toEqual([]);
    const none = three();
    expect(clearSelection(none)).toBe(none);
  });
});

describe('undo and redo', () => {
  it('walks back and forth through the changes', () => {
    const a = three();
    const b = moveCues(a, [1], 100);
    const c = setStrength(b, [1], 1);
    expect(undo(c).doc).toBe(b.doc);
    expect(undo(undo(c)).doc).toBe(a.doc);
    expect(canUndo(undo(undo(c)))).toBe(false);
    expect(redo(undo(undo(c))).doc).toBe(b.doc);
    expect(redo(redo(undo(undo(c)))).doc).toBe(c.doc);
    expect(canRedo(c)).toBe(false);
  });

  it('forgets the redo steps after a new change', () => {
    const s = removeCues(undo(moveCues(three(), [1], 100)), [3]);
    expect(canRedo(s)).toBe(false);
    expect(ids(s)).toEqual([1, 2]);
  });

  it('drops selected ids that the restored document lacks', () => {
    const s = select(addCue(three(), 8000, 9000, 1), [4, 1], 'replace');
    expect(sel(undo(s))).toEqual([1]);
  });

  it('does nothing with no history', () => {
    const s = three();
    expect(undo(s)).toBe(s);
    expect(redo(s)).toBe(s);
  });

  it(`keeps the last ${HISTORY_LIMIT} steps`, () => {
    let s = three();
    for (let i = 0; i < HISTORY_LIMIT + 20; i++) s = nudgeCues(s, [3], 10);
    expect(s.past).toHaveLength(HISTORY_LIMIT);
    while (canUndo(s)) s = undo(s);
    expect(spans(s)[2]).toEqual([5200, 6200, 0.2]);
  });

  it('is clean again after undoing back to the saved document', () => {
    const s = moveCues(three(), [1], 100);
    expect(isDirty(s)).toBe(true);
    expect(isDirty(undo(s))).toBe(false);
    const saved = markSaved(s);
    expect(isDirty(saved)).toBe(false);
    expect(isDirty(undo(saved))).toBe(true);
    expect(markSaved(saved)).toBe(saved);
  });
});

describe('replaceAll', () => {
  it('replaces every cue as one undo step, normalised, with new ids and no selection', () => {
    const s = replaceAll(selectAll(three()), [cue(200, 900, 0.4), cue(100, 300, 1)]);
    expect(spans(s)).toEqual([
      [100, 200, 1],
      [200, 900, 0.4],
    ]);
    expect(ids(s)).toEqual([4, 5]);
    expect(sel(s)).toEqual([]);
    expect(ids(undo(s))).toEqual([1, 2, 3]);
  });
});

/** The first broken invariant of the document and selection, or null. */
function violation(s: EditorState, duration: number): string | null {
  const cues = s.doc.cues;
  const seen = new Set<number>();
  for (const [k, c] of cues.entries()) {
    if (!(c.stopTime > c.time)) return `cue ${k} is empty`;
    if (c.time < 0) return `cue ${k} starts before 0`;
    if (!(c.strength >= 0 && c.strength <= 1)) return `cue ${k} has strength ${c.strength}`;
    if (k > 0 && c.time < cues[k - 1].stopTime) return `cue ${k} overlaps or precedes the one before`;
    if (c.id >= s.doc.nextId || seen.has(c.id)) return `cue ${k} has a bad id ${c.id}`;
    seen.add(c.id);
  }
  for (const id of s.selection) if (!seen.has(id)) return `selected id ${id} is not a cue`;
  // The starting cues may reach 2 s past the end; edits never push further.
  if ((cues.at(-1)?.stopTime ?? 0) > duration + 2010) return 'a cue ends too late';
  return null;
}

describe('invariants', () => {
  it('keeps cues sorted, apart, non-empty, within the file and uniquely numbered over a random session', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const int = (n: number) => Math.floor(random() * n);
    const duration = 60_000;
    const start = Array.from({ length: 200 }, () => {
      const time = int(duration - 500);
      return cue(time, time + 10 + int(2000), int(101) / 100);
    });
    let s = createEditorState(start, duration);
    const someIds = () => s.doc.cues.filter(() => random() < 0.1).map((c) => c.id);
    const anyId = () => s.doc.cues[int(s.doc.cues.length)]?.id ?? 0;
    for (let step = 0; step < 2000; step++) {
      const op = int(13);
      if (op === 0) s = addCue(s, int(duration), int(duration), random());
      else if (op === 1) s = moveCues(s, someIds(), int(20_000) - 10_000);
      else if (op === 2) s = resizeCue(s, anyId(), random() < 0.5 ? 'start' : 'stop', int(duration));
      else if (op === 3) s = setStrength(s, someIds(), random() * 1.4 - 0.2);
      else if (op === 4 && random() < 0.3) s = removeCues(s, someIds());
      else if (op === 5) s = copyCues(s, someIds());
      else if (op === 6) s = pasteCues(s, int(duration));
      else if (op === 7) s = undo(s);
      else if (op === 8) s = redo(s);
      else if (op === 9) s = selectInRange(s, int(duration), int(duration), 'toggle');
      else if (op === 10) s = nudgeCues(s, s.selection, random() < 0.5 ? -10 : 10);
      else if (op === 11 && random() < 0.05) s = replaceAll(s, start.slice(0, int(200)));
      else if (op === 12) s = changeStrength(s, someIds(), random() - 0.5);

      expect(violation(s, duration), `after step ${step} (operation ${op})`).toBeNull();
    }
  });
});
