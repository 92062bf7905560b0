import { describe, expect, it } from 'vitest';
import { csvFileName, toCsv } from './csv.ts';

describe('toCsv', () => {
  it('writes a header record and CRLF-ended records', () => {
    expect(
      toCsv(
        ['Day', 'Plays'],
        [
          ['2026-11-01', 3],
          ['2026-11-02', 0],
        ],
      ),
    ).toBe('Day,Plays\r\n2026-11-01,3\r\n2026-11-02,0\r\n');
  });

  it('quotes fields with commas, quotes and line breaks, doubling quotes (RFC 4180)', () => {
    expect(toCsv(['Name'], [['a, b'], ['say "hi"'], ['two\nlines'], ['cr\rhere'], ['plain']])).toBe(
      'Name\r\n"a, b"\r\n"say ""hi"""\r\n"two\nlines"\r\n"cr\rhere"\r\nplain\r\n',
    );
  });

  it('leaves a missing figure empty and keeps decimals as written', () => {
    expect(toCsv(['A', 'B', 'C'], [[null, 0.25, '']])).toBe('A,B,C\r\n,0.25,\r\n');
  });

  it('writes only the header for an empty table', () => {
    expect(toCsv(['Only'], [])).toBe('Only\r\n');
  });
});

describe('csvFileName', () => {
  it('makes a safe name from a title', () => {
    expect(csvFileName('Plays & unique listeners')).toBe('plays-unique-listeners.csv');
    expect(csvFileName('***')).toBe('insights.csv');
  });
});
