import { describe, expect, it } from 'vitest';
import {
  addDays,
  bucketStarts,
  canReadInsightsOf,
  heardParts,
  heardPartsFromStart,
  MIN_LISTENERS,
  periodRange,
  RETENTION_BINS,
  readsAllInsights,
  showable,
  weekStart,
} from './insights.ts';

describe('periods and buckets', () => {
  it('a period ends today and the previous one ends the day before it starts', () => {
    expect(periodRange('2026-06-01', 7)).toEqual({
      from: '2026-05-26',
      to: '2026-06-01',
      previousFrom: '2026-05-19',
      previousTo: '2026-05-25',
    });
    expect(periodRange('2026-03-01', 28).from).toBe('2026-02-02');
  });

  it('weeks start on Monday', () => {
    expect(weekStart('2026-06-01')).toBe('2026-06-01'); // a Monday
    expect(weekStart('2026-06-07')).toBe('2026-06-01'); // Sunday
    expect(weekStart('2026-01-01')).toBe('2025-12-29');
    expect(weekStart('1969-12-31')).toBe('1969-12-29'); // before the epoch, a Wednesday
  });

  it('moves days as the calendar does, leap years and the epoch included', () => {
    // Every day from 1968 to 2031 against the ISO strings of Date.
    const start = Date.UTC(1968, 0, 1);
    for (let i = 0; i < 64 * 366; i += 1) {
      const day = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
      const next = new Date(start + (i + 1) * 86_400_000).toISOString().slice(0, 10);
      expect(addDays(day, 1)).toBe(next);
      const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
      expect(weekStart(day)).toBe(addDays(day, -((weekday + 6) % 7)));
    }
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-03-01', -366)).toBe('2023-03-01');
  });

  it('lists the buckets of a range, the first week starting before the range when it must', () => {
    expect(bucketStarts('2026-05-30', '2026-06-01', 'day')).toEqual([
      '2026-05-30',
      '2026-05-31',
      '2026-06-01',
    ]);
    expect(bucketStarts('2026-05-26', '2026-06-08', 'week')).toEqual([
      '2026-05-25',
      '2026-06-01',
      '2026-06-08',
    ]);
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('threshold and readers', () => {
  it('shows figures from MIN_LISTENERS listeners on', () => {
    expect(MIN_LISTENERS).toBe(5);
    expect(showable(4)).toBe(false);
    expect(showable(5)).toBe(true);
  });

  it('the uploader or an administrator reads a creator’s insights', () => {
    expect(canReadInsightsOf({ id: 3, roles: [] }, 3)).toBe(true);
    expect(canReadInsightsOf({ id: 4, roles: ['Moderator'] }, 3)).toBe(false);
    expect(canReadInsightsOf({ id: 4, roles: ['Administrator'] }, 3)).toBe(true);
    expect(readsAllInsights(null)).toBe(false);
  });
});

describe('retention parts', () => {
  it('a part is heard when the byte at its middle was served', () => {
    const parts = heardParts([[0, 499]], 1000);
    expect(parts).toHaveLength(RETENTION_BINS);
    expect(parts.slice(0, 50).every(Boolean)).toBe(true);
    expect(parts.slice(50).some(Boolean)).toBe(false);
    expect(heardParts([[990, 999]], 1000).findIndex(Boolean)).toBe(99);
  });

  it('an offline play heard from the start up to its share', () => {
    const parts = heardPartsFromStart(0.6);
    expect(parts.lastIndexOf(true)).toBe(59);
    expect(parts.indexOf(false)).toBe(60);
    expect(heardPartsFromStart(0).some(Boolean)).toBe(false);
  });
});
