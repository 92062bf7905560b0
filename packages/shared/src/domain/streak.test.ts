import { describe, expect, it } from 'vitest';
import { currentStreak, daysBetween, extendStreak, localDay } from './streak.ts';

describe('localDay', () => {
  const instant = new Date('2026-06-01T23:30:00Z');

  it('reads the calendar day in the given time zone', () => {
    expect(localDay(instant, 'UTC')).toBe('2026-06-01');
    expect(localDay(instant, 'Europe/Berlin')).toBe('2026-06-02');
    expect(localDay(instant, 'America/Los_Angeles')).toBe('2026-06-01');
    expect(localDay(new Date('2026-06-01T05:00:00Z'), 'America/Los_Angeles')).toBe('2026-05-31');
  });

  it('handles half-hour zones and the date line', () => {
    expect(localDay(new Date('2026-06-01T18:29:00Z'), 'Asia/Kolkata')).toBe('2026-06-01');
    expect(localDay(new Date('2026-06-01T18:30:00Z'), 'Asia/Kolkata')).toBe('2026-06-02');
    expect(localDay(new Date('2026-06-01T11:00:00Z'), 'Pacific/Kiritimati')).toBe('2026-06-02');
  });

  it('falls back to UTC for an unknown zone', () => {
    expect(localDay(instant, 'Not/AZone')).toBe('2026-06-01');
  });
});

describe('daysBetween', () => {
  it.each([
    ['2026-06-01', '2026-06-01', 0],
    ['2026-06-01', '2026-06-02', 1],
    ['2026-06-02', '2026-06-01', -1],
    ['2026-02-28', '2026-03-01', 1],
    ['2028-02-28', '2028-03-01', 2],
    ['2026-12-31', '2027-01-01', 1],
    ['2026-03-28', '2026-03-30', 2],
  ])('%s to %s is %i', (from, to, days) => {
    expect(daysBetween(from, to)).toBe(days);
  });
});

describe('extendStreak', () => {
  it('starts at 1 on the first listening day', () => {
    expect(extendStreak({ streak: 0, lastDay: null }, '2026-06-01')).toEqual({
      streak: 1,
      lastDay: '2026-06-01',
    });
  });

  it('keeps the streak on the same day', () => {
    expect(extendStreak({ streak: 4, lastDay: '2026-06-01' }, '2026-06-01')).toEqual({
      streak: 4,
      lastDay: '2026-06-01',
    });
  });

  it('adds a day when the last counted day was yesterday', () => {
    expect(extendStreak({ streak: 4, lastDay: '2026-05-31' }, '2026-06-01')).toEqual({
      streak: 5,
      lastDay: '2026-06-01',
    });
  });

  it('starts over at 1 after a gap', () => {
    expect(extendStreak({ streak: 9, lastDay: '2026-05-30' }, '2026-06-01')).toEqual({
      streak: 1,
      lastDay: '2026-06-01',
    });
  });

  it('keeps the streak when a time-zone change makes today look earlier', () => {
    expect(extendStreak({ streak: 3, lastDay: '2026-06-02' }, '2026-06-01')).toEqual({
      streak: 3,
      lastDay: '2026-06-02',
    });
  });

  it('never reports less than 1 once a day counted', () => {
    expect(extendStreak({ streak: 0, lastDay: '2026-06-01' }, '2026-06-01').streak).toBe(1);
  });

  it('counts across month and year ends', () => {
    expect(extendStreak({ streak: 2, lastDay: '2026-12-31' }, '2027-01-01').streak).toBe(3);
    expect(extendStreak({ streak: 2, lastDay: '2026-02-28' }, '2026-03-01').streak).toBe(3);
  });
});

describe('currentStreak', () => {
  it('is 0 before any listening', () => {
    expect(currentStreak({ streak: 0, lastDay: null }, '2026-06-01')).toBe(0);
  });

  it('is the stored streak while it can still be extended', () => {
    expect(currentStreak({ streak: 5, lastDay: '2026-06-01' }, '2026-06-01')).toBe(5);
    expect(currentStreak({ streak: 5, lastDay: '2026-05-31' }, '2026-06-01')).toBe(5);
  });

  it('is 0 once a whole day was missed', () => {
    expect(currentStreak({ streak: 5, lastDay: '2026-05-30' }, '2026-06-01')).toBe(0);
  });
});
