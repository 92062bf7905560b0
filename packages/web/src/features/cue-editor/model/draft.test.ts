import { describe, expect, it } from 'vitest';
import {
  type CueDraft,
  type DraftStorage,
  discardDraft,
  draftKey,
  loadDraft,
  parseDraft,
  saveDraft,
  serializeDraft,
} from './draft';

const draft: CueDraft = {
  baseVersion: 3,
  savedAt: 1_795_000_000_000,
  cues: [
    { time: 0, stopTime: 500, strength: 0.25 },
    { time: 700, stopTime: 900, strength: 1 },
  ],
};

/** A Map-backed storage, optionally refusing writes (a full quota) or reads (disabled storage). */
function memoryStorage({ full = false, broken = false } = {}): DraftStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => {
      if (broken) throw new Error('SecurityError');
      return items.get(key) ?? null;
    },
    setItem: (key, value) => {
      if (full) throw new Error('QuotaExceededError');
      items.set(key, value);
    },
    removeItem: (key) => {
      if (broken) throw new Error('SecurityError');
      items.delete(key);
    },
  };
}

describe('serializeDraft and parseDraft', () => {
  it('round-trip a draft', () => {
    expect(parseDraft(serializeDraft(draft))).toEqual(draft);
  });

  it('keep an empty draft (every cue deleted) and sort the cues', () => {
    expect(parseDraft(serializeDraft({ ...draft, cues: [] }))).toEqual({ ...draft, cues: [] });
    const reversed = { ...draft, cues: [...draft.cues].reverse() };
    expect(parseDraft(serializeDraft(reversed))).toEqual(draft);
  });

  it('write only the cue fields', () => {
    const withIds = { ...draft, cues: [{ id: 4, time: 0, stopTime: 5, strength: 1 }] };
    expect(JSON.parse(serializeDraft(withIds)).cues).toEqual([{ time: 0, stopTime: 5, strength: 1 }]);
  });

  it('ignore anything that is not a valid draft', () => {
    const valid = JSON.parse(serializeDraft(draft));
    const bad = [
      null,
      '',
      '{',
      'null',
      '[]',
      JSON.stringify({ ...valid, format: 2 }),
      JSON.stringify({ ...valid, baseVersion: 'abc' }),
      JSON.stringify({ ...valid, baseVersion: -1 }),
      JSON.stringify({ ...valid, savedAt: 'yesterday' }),
      JSON.stringify({ ...valid, cues: 'many' }),
      JSON.stringify({ ...valid, cues: [{ time: 5, stopTime: 5, strength: 1 }] }),
      JSON.stringify({ ...valid, cues: [{ time: -1, stopTime: 5, strength: 1 }] }),
      JSON.stringify({ ...valid, cues: [{ time: 0, stopTime: 5, strength: 1.5 }] }),
      JSON.stringify({ ...valid, cues: [{ time: 0, stopTime: 5 }] }),
    ];
    for (const text of bad) expect(parseDraft(text)).toBeNull();
  });
});

describe('saveDraft, loadDraft and discardDraft', () => {
  it('keep one draft per file', () => {
    const storage = memoryStorage();
    expect(saveDraft(storage, 12, draft)).toBe(true);
    expect(storage.items.has(draftKey(12))).toBe(true);
    expect(loadDraft(storage, 12)).toEqual(draft);
    expect(loadDraft(storage, 13)).toBeNull();
    discardDraft(storage, 12);
    expect(loadDraft(storage, 12)).toBeNull();
    expect(storage.items.size).toBe(0);
  });

  it('remove a corrupt draft instead of failing', () => {
    const storage = memoryStorage();
    storage.items.set(draftKey('abc'), '{"format":1,"cues":[{');
    expect(loadDraft(storage, 'abc')).toBeNull();
    expect(storage.items.has(draftKey('abc'))).toBe(false);
  });

  it('report a full storage and survive a disabled one', () => {
    expect(saveDraft(memoryStorage({ full: true }), 1, draft)).toBe(false);
    const broken = memoryStorage({ broken: true });
    expect(loadDraft(broken, 1)).toBeNull();
    expect(() => discardDraft(broken, 1)).not.toThrow();
  });
});
