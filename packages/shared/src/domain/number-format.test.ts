import { describe, expect, it } from 'vitest';
import { mediumDate, mediumDateTime, monthYear, withThousands } from './number-format.ts';

describe('withThousands', () => {
  it('writes whole numbers as en-US does', () => {
    for (const n of [0, 7, 999, 1000, 12_345, 999_999, 1_000_000, 123_456_789, -4321, 2 ** 40]) {
      expect(withThousands(n), String(n)).toBe(n.toLocaleString('en-US'));
    }
  });
});

describe('mediumDate', () => {
  it("writes a day as Intl's en-US medium date style does", () => {
    const format = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
    for (const day of [
      '2026-01-01T12:00:00',
      '2024-02-29T00:00:00',
      '1999-12-31T23:59:59',
      '2030-07-04T08:00:00',
    ]) {
      expect(mediumDate(new Date(day)), day).toBe(format.format(new Date(day)));
    }
  });
});

const moments = ['2026-01-01T00:00:00', '2024-02-29T12:00:00', '1999-12-31T23:59:59', '2030-07-04T08:05:00'];

describe('monthYear', () => {
  it("writes a month as Intl's en-US long month and year do", () => {
    const format = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' });
    for (const at of moments) expect(monthYear(new Date(at)), at).toBe(format.format(new Date(at)));
  });
});

describe('mediumDateTime', () => {
  it("writes a moment as Intl's en-US medium date and short time do, midnight and noon included", () => {
    const format = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
    for (const at of moments) {
      expect(mediumDateTime(new Date(at)), at).toBe(format.format(new Date(at)).replace('\u202f', ' '));
    }
  });
});
