import { describe, expect, it } from 'vitest';
import { addServedRange, MAX_SERVED_RANGES, type ServedRanges, servedBytes } from './served-ranges.ts';

describe('addServedRange', () => {
  it('keeps ranges sorted and merges overlapping and adjacent ones', () => {
    let r: ServedRanges = [];
    r = addServedRange(r, 100, 199);
    r = addServedRange(r, 0, 9);
    expect(r).toEqual([
      [0, 9],
      [100, 199],
    ]);
    r = addServedRange(r, 150, 299);
    expect(r).toEqual([
      [0, 9],
      [100, 299],
    ]);
    r = addServedRange(r, 10, 99);
    expect(r).toEqual([[0, 299]]);
    r = addServedRange(r, 400, 499);
    r = addServedRange(r, 350, 359);
    expect(r).toEqual([
      [0, 299],
      [350, 359],
      [400, 499],
    ]);
    expect(addServedRange(r, 0, 1000)).toEqual([[0, 1000]]);
  });

  it('counts the same bytes once', () => {
    let r: ServedRanges = [];
    for (let i = 0; i < 5; i++) r = addServedRange(r, 0, 999);
    expect(servedBytes(r)).toBe(1000);
    expect(servedBytes(addServedRange(r, 500, 1499))).toBe(1500);
  });

  it('answers the same ranges when the bytes were already held', () => {
    const r: ServedRanges = [
      [0, 99],
      [200, 299],
    ];
    expect(addServedRange(r, 0, 99)).toBe(r);
    expect(addServedRange(r, 210, 250)).toBe(r);
    expect(addServedRange(r, 90, 110)).not.toBe(r);
  });

  it('ignores empty ranges and a stretch past the cap', () => {
    expect(addServedRange([[0, 5]], 9, 8)).toEqual([[0, 5]]);
    let r: ServedRanges = [];
    for (let i = 0; i < MAX_SERVED_RANGES; i++) r = addServedRange(r, i * 10, i * 10);
    expect(r).toHaveLength(MAX_SERVED_RANGES);
    expect(addServedRange(r, 100_000, 100_010)).toBe(r);
    expect(servedBytes(addServedRange(r, 0, 5))).toBe(MAX_SERVED_RANGES + 5);
  });
});
