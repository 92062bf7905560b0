import { describe, expect, it } from 'vitest';
import { mediumDate, withThousands } from './number-format.ts';

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
