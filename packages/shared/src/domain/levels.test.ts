import { describe, expect, it } from 'vitest';
import { levelForPoints, levelProgress, pointsForLevel } from './levels.ts';

describe('pointsForLevel', () => {
  it('follows (2n³ + 3n² + 301n) / 6', () => {
    expect(pointsForLevel(0)).toBe(0);
    expect(pointsForLevel(1)).toBe(51);
    expect(pointsForLevel(2)).toBe(105);
    expect(pointsForLevel(3)).toBe(164);
    expect(pointsForLevel(10)).toBe(885);
    expect(pointsForLevel(100)).toBe(343_350);
  });

  it('is a whole number and strictly increasing for every level up to 2000', () => {
    for (let n = 1; n <= 2000; n++) {
      expect(Number.isInteger(pointsForLevel(n))).toBe(true);
      expect(pointsForLevel(n)).toBeGreaterThan(pointsForLevel(n - 1));
    }
  });

  it('treats negative and fractional levels as their whole part, never below 0', () => {
    expect(pointsForLevel(-3)).toBe(0);
    expect(pointsForLevel(2.9)).toBe(105);
  });
});

describe('levelForPoints', () => {
  it('starts at level 0 with 0 points and reaches level 1 at exactly 51', () => {
    expect(levelForPoints(0)).toBe(0);
    expect(levelForPoints(50)).toBe(0);
    expect(levelForPoints(51)).toBe(1);
    expect(levelForPoints(104)).toBe(1);
    expect(levelForPoints(105)).toBe(2);
  });

  it('is the inverse of pointsForLevel at and just below every threshold up to level 2000', () => {
    for (let n = 1; n <= 2000; n++) {
      expect(levelForPoints(pointsForLevel(n))).toBe(n);
      expect(levelForPoints(pointsForLevel(n) - 1)).toBe(n - 1);
    }
  });

  it('handles very large totals', () => {
    expect(levelForPoints(pointsForLevel(50_000))).toBe(50_000);
    expect(levelForPoints(pointsForLevel(50_000) - 1)).toBe(49_999);
  });

  it('gives level 0 for negative, fractional-below-threshold or non-finite input', () => {
    expect(levelForPoints(-10)).toBe(0);
    expect(levelForPoints(50.99)).toBe(0);
    expect(levelForPoints(Number.NaN)).toBe(0);
    expect(levelForPoints(Number.POSITIVE_INFINITY)).toBe(0);
  });
});

describe('levelProgress', () => {
  it('shows a new user at level 0, on the way to 51 points', () => {
    expect(levelProgress(0)).toEqual({ level: 0, current: 0, next: 51, fraction: 0 });
  });

  it('measures the fraction within the current level', () => {
    // Level 1 spans 51..105 (54 points); 78 is half way.
    expect(levelProgress(78)).toEqual({ level: 1, current: 78, next: 105, fraction: 0.5 });
    expect(levelProgress(51)).toEqual({ level: 1, current: 51, next: 105, fraction: 0 });
  });

  it('keeps the fraction in [0, 1) everywhere', () => {
    for (let p = 0; p < 5000; p += 7) {
      const { fraction, level, next } = levelProgress(p);
      expect(fraction).toBeGreaterThanOrEqual(0);
      expect(fraction).toBeLessThan(1);
      expect(next).toBe(pointsForLevel(level + 1));
    }
  });

  it('cleans up invalid points', () => {
    expect(levelProgress(-5)).toEqual({ level: 0, current: 0, next: 51, fraction: 0 });
    expect(levelProgress(Number.NaN)).toEqual({ level: 0, current: 0, next: 51, fraction: 0 });
    expect(levelProgress(60.7).current).toBe(60);
  });
});
