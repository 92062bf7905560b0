import { describe, expect, it } from 'vitest';
import {
  chooseLevel,
  coarserLevel,
  levelCountFor,
  levelMs,
  MAX_PEAK_LEVELS,
  peakLevel,
  peaksInWindow,
} from './waveform-peaks.ts';

describe('levelMs', () => {
  it('is 5 ms at the finest level and ×4 at each coarser one', () => {
    expect([0, 1, 2, 3, 4].map(levelMs)).toEqual([5, 20, 80, 320, 1280]);
  });
});

describe('levelCountFor', () => {
  it('adds levels until one holds at most 1,000 peaks', () => {
    expect(levelCountFor(0)).toBe(1);
    expect(levelCountFor(1000)).toBe(1);
    expect(levelCountFor(1001)).toBe(2);
    expect(levelCountFor(4000)).toBe(2);
    expect(levelCountFor(4001)).toBe(3);
    // An hour: 720,000 → 180,000 → 45,000 → 11,250 → 2,813 → 704.
    expect(levelCountFor(720_000)).toBe(6);
  });

  it(`stops at ${MAX_PEAK_LEVELS} levels`, () => {
    expect(levelCountFor(Number.MAX_SAFE_INTEGER)).toBe(MAX_PEAK_LEVELS);
  });
});

describe('peaksInWindow', () => {
  it('counts the peaks from the one holding fromMs to the one holding toMs − 1', () => {
    expect(peaksInWindow(0, 1000, 5)).toBe(200);
    expect(peaksInWindow(1003, 1017, 5)).toBe(4);
    expect(peaksInWindow(1000, 1001, 20)).toBe(1);
    expect(peaksInWindow(1000, 1000, 5)).toBe(0);
    expect(peaksInWindow(2000, 1000, 5)).toBe(0);
  });
});

describe('chooseLevel', () => {
  it('takes the coarsest level whose peaks cover at most msPerPeak', () => {
    expect(chooseLevel(1, 0, 1000, 6)).toBe(0);
    expect(chooseLevel(5, 0, 1000, 6)).toBe(0);
    expect(chooseLevel(19, 0, 1000, 6)).toBe(0);
    expect(chooseLevel(20, 0, 1000, 6)).toBe(1);
    expect(chooseLevel(319, 0, 1000, 6)).toBe(2);
    expect(chooseLevel(100_000, 0, 1000, 6)).toBe(5);
  });

  it('goes coarser while the window would hold more than 4,000 peaks', () => {
    expect(chooseLevel(5, 0, 20_000, 6)).toBe(0);
    expect(chooseLevel(5, 0, 20_001, 6)).toBe(1);
    // A whole hour asked at 5 ms: 1,280 ms peaks (2,813 of them).
    expect(chooseLevel(5, 0, 3_600_000, 6)).toBe(4);
  });

  it('never passes the levels there are', () => {
    expect(chooseLevel(100_000, 0, 1000, 1)).toBe(0);
    expect(chooseLevel(5, 0, 3_600_000, 2)).toBe(1);
  });
});

describe('coarserLevel', () => {
  it('keeps the largest of each four, the last group possibly shorter', () => {
    expect([...coarserLevel(Uint8Array.from([1, 9, 3, 4, 200, 0, 0, 7, 5, 6]))]).toEqual([9, 200, 6]);
    expect([...coarserLevel(new Uint8Array(0))]).toEqual([]);
  });
});

describe('peakLevel', () => {
  it('maps 0-255 to 0-1 with three decimals', () => {
    expect([0, 1, 26, 128, 255].map(peakLevel)).toEqual([0, 0.004, 0.102, 0.502, 1]);
  });
});
