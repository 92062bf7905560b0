import { downloadText } from '../../lib/download.ts';

/** A cell of a chart's table: text, a number, or nothing (a withheld or missing figure). */
export type CsvCell = string | number | null;

/** One field per RFC 4180: quoted when it holds a comma, a quote or a line break; quotes doubled. */
function field(cell: CsvCell): string {
  if (cell === null) return '';
  const text = String(cell);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The CSV text of a table (RFC 4180: CRLF between records, a header record first). */
export function toCsv(columns: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [columns, ...rows].map((record) => `${record.map(field).join(',')}\r\n`).join('');
}

/** A file name from a title: lower case words joined by dashes, ending in .csv. */
export function csvFileName(title: string): string {
  const base = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${base || 'insights'}.csv`;
}

/** Saves `csv` as a file in the browser. */
export function downloadCsv(fileName: string, csv: string): void {
  downloadText(fileName, csv, 'text/csv;charset=utf-8');
}
