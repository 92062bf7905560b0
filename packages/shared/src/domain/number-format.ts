/*
 * Numbers and dates as the app writes them (en-US), without Intl: the first Intl formatter a page makes
 * loads its locale data, 55-75 ms of main thread on a desktop and four times that on a phone, and the
 * home, file and profile pages would make one while they first render.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A whole number with thousands separators: 12,345 (as `toLocaleString('en-US')` writes it). */
export function withThousands(n: number): string {
  const digits = String(Math.abs(Math.round(n))).replace(/\B(?=(\d{3})+$)/g, ',');
  return n <= -0.5 ? `-${digits}` : digits;
}

/** A day in local time as Intl's en-US medium date style writes it: Nov 26, 2026. */
export function mediumDate(date: Date): string {
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
}
