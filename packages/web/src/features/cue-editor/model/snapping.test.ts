import { describe, expect, it } from 'vitest';
import { nearestPeak, peakTimes, snapTime } from './snapping';

describe('nearestPeak', () => {
  const peaks = [100, 400, 1000];

  it('finds the nearest time, the earlier one on a tie', () => {
    expect(nearestPeak(peaks, 390)).toBe(400);
    expect(nearestPeak(peaks, 250)).toBe(100);
    expect(nearestPeak(peaks, 251)).toBe(400);
    expect(nearestPeak(peaks, 0)).toBe(100);
    expect(nearestPeak(peaks, 5000)).toBe(1000);
    expect(nearestPeak(peaks, 400)).toBe(400);
  });

  it('is null without peaks', () => {
    expect(nearestPeak([], 10)).toBeNull();
  });
});

describe('snapTime', () => {
  it('snaps to the nearest grid line within the tolerance', () => {
    expect(snapTime(1040, { gridMs: 250, toleranceMs: 50 })).toBe(1000);
    expect(snapTime(1210, { gridMs: 250, toleranceMs: 50 })).toBe(1250);
    expect(snapTime(1100, { gridMs: 250, toleranceMs: 50 })).toBe(1100);
  });

  it('snaps to a peak within the tolerance', () => {
    const peaksTimes = [333, 1777];
    expect(snapTime(1750, { peaksTimes, toleranceMs: 30 })).toBe(1777);
    expect(snapTime(1700, { peaksTimes, toleranceMs: 30 })).toBe(1700);
  });

  it('takes the nearer of a grid line and a peak; the peak on a tie', () => {
    expect(snapTime(1020, { gridMs: 1000, peaksTimes: [1030], toleranceMs: 50 })).toBe(1030);
    expect(snapTime(1010, { gridMs: 1000, peaksTimes: [1030], toleranceMs: 50 })).toBe(1000);
    expect(snapTime(1015, { gridMs: 1000, peaksTimes: [1030], toleranceMs: 50 })).toBe(1030);
  });

  it('leaves the time alone without a grid, peaks or tolerance', () => {
    expect(snapTime(1234, { toleranceMs: 50 })).toBe(1234);
    expect(snapTime(1234, { gridMs: 0, peaksTimes: [], toleranceMs: 50 })).toBe(1234);
    expect(snapTime(1001, { gridMs: 1000, toleranceMs: 0 })).toBe(1001);
    expect(snapTime(1001, { gridMs: 1000, toleranceMs: -5 })).toBe(1001);
  });
});

describe('peakTimes', () => {
  it('gives the times of the local maxima', () => {
    const peaks = [0, 0.2, 0.9, 0.3, 0.1, 0.1, 0.5, 1, 0.4, 0];
    expect(peakTimes(peaks, 10, { windowMs: 20, minLevel: 0 })).toEqual([20, 70]);
    expect(peakTimes(peaks, 10, { fromMs: 5000, windowMs: 20, minLevel: 0 })).toEqual([5020, 5070]);
  });

  it('leaves out quiet bumps and peaks closer than the window', () => {
    const peaks = [0, 0.15, 0, 0, 0, 1, 0, 0.9, 0, 0];
    expect(peakTimes(peaks, 10, { windowMs: 10, minLevel: 0.2 })).toEqual([50, 70]);
    expect(peakTimes(peaks, 10, { windowMs: 30, minLevel: 0.2 })).toEqual([50]);
  });

  it('takes the first point of a plateau and negative values by size', () => {
    expect(peakTimes([0, 0.8, 0.8, 0.8, 0], 5, { windowMs: 5, minLevel: 0 })).toEqual([5]);
    expect(peakTimes([0, -0.9, 0, 0, 0.2, 0], 5, { windowMs: 5, minLevel: 0.5 })).toEqual([5]);
  });

  it('is empty for silence, no peaks or a bad scale', () => {
    expect(peakTimes([0, 0, 0], 10)).toEqual([]);
    expect(peakTimes([], 10)).toEqual([]);
    expect(peakTimes([1, 0], 0)).toEqual([]);
  });
});
