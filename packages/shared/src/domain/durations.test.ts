import { describe, expect, it } from 'vitest';
import { formatDuration, formatTime } from './durations.ts';

describe('formatTime', () => {
  it.each([
    [0, '00:00'],
    [999, '00:00'],
    [1000, '00:01'],
    [65_000, '01:05'],
    [59 * 60_000 + 59_000, '59:59'],
    [3_600_000, '01:00:00'],
    [3_725_000, '01:02:05'],
    [36_000_000 + 1000, '10:00:01'],
  ])('%i ms reads %s', (ms, text) => {
    expect(formatTime(ms)).toBe(text);
  });

  it.each([-5000, Number.NaN, Number.POSITIVE_INFINITY])('%s reads 00:00', (ms) => {
    expect(formatTime(ms)).toBe('00:00');
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [45_000, '45s'],
    [59_999, '59s'],
    [60_000, '1m'],
    [125_000, '2m'],
    [3_599_000, '59m'],
    [3_600_000, '1h 0m'],
    [3_725_000, '1h 2m'],
    [5_400_000, '1h 30m'],
    [10 * 3_600_000, '10h 0m'],
  ])('%i ms reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it.each([-1, Number.NaN])('%s reads 0s', (ms) => {
    expect(formatDuration(ms)).toBe('0s');
  });
});
