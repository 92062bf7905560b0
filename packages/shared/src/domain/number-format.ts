/*
 * Numbers and dates as the app writes them (en-US), without Intl: the first Intl formatter a page makes
 * loads its locale data, 55-75 ms of main thread on a desktop and four times that on a phone, and the
 * home, file and profile pages would make one while they first render.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A whole number with thousands separators: 12,345 (as `toLocaleString('en-US')` writes it). */
export function withThousands(n: number): string {
  const digits = String(Math.abs(Math.round(n))).replace(/\B(?=(\d{3})+$)/g, ',');
  return n <= -0.5 ? `-${digits}` : digits;
}

/** A day in local time as Intl's en-US medium date style writes it: Nov 26, 2026. */
export function mediumDate(date: Date): string {
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
}

/** A month in local time as Intl's en-US long month and year write it: November 2026. */
export function monthYear(date: Date): string {
  return `${LONG_MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

/**
 * A moment in local time as Intl's en-US medium date and short time styles write it: Nov 26, 2026, 3:05 PM
 * (with a plain space before PM, where Intl puts a narrow no-break one).
 */
export function mediumDateTime(date: Date): string {
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, '0');
  return `${mediumDate(date)}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}
