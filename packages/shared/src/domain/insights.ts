/**
 * Insights (issue 32, docs/decisions/047-insights-rollups.md): the rules both sides share. Creators see
 * aggregates of their files' plays, listeners their own practice, staff the site. Everything is read
 * from rollups kept as sessions end; these are the thresholds, periods and buckets they are read by.
 */

/** A curve or breakdown computed from fewer distinct listeners than this is withheld, never shown. */
export const MIN_LISTENERS = 5;

/** The periods a creator or staff member may look at, in days (ending today, UTC). */
export const INSIGHTS_PERIODS = [7, 28, 90, 365] as const;
export type InsightsPeriod = (typeof INSIGHTS_PERIODS)[number];
export const DEFAULT_INSIGHTS_PERIOD: InsightsPeriod = 28;

/** How a series is bucketed: one point per UTC day, or per ISO week (starting Monday). */
export const INSIGHTS_BUCKETS = ['day', 'week'] as const;
export type InsightsBucket = (typeof INSIGHTS_BUCKETS)[number];

/** Where a play came from, as the player says when it starts a session; offline sessions are 'offline'. */
export const PLAY_SOURCES = [
  'core-playlist',
  'community-playlist',
  'training-plan',
  'generator',
  'file-page',
  'shared-link',
  'offline',
] as const;
export type PlaySource = (typeof PLAY_SOURCES)[number];
/** The sources a player may send when it starts an online session. */
export type OnlinePlaySource = Exclude<PlaySource, 'offline'>;
export const ONLINE_PLAY_SOURCES = PLAY_SOURCES.filter((s): s is OnlinePlaySource => s !== 'offline') as [
  OnlinePlaySource,
  ...OnlinePlaySource[],
];

export const PLAY_SOURCE_LABELS: Record<PlaySource, string> = {
  'core-playlist': 'Core playlist',
  'community-playlist': 'Community playlist',
  'training-plan': 'Training plan',
  generator: 'Generator',
  'file-page': 'File page',
  'shared-link': 'Shared link',
  offline: 'Offline copy',
};

/** Sessions whose player sent no source (older players, other clients) are counted under this key. */
export const UNKNOWN_SOURCE = 'unknown' as const;
export const UNKNOWN_SOURCE_LABEL = 'Other';

/** The retention curve splits a track into this many equal parts. */
export const RETENTION_BINS = 100;

/** A play heard at least this share of the track counts as completed. */
export const COMPLETION_SHARE = 0.9;

/**
 * Raw per-session detail (served byte ranges, source, toy, tier) is kept this many days; the clean-up
 * then clears it (and deletes sessions nothing else needs). The rollups built from it stay.
 */
export const RAW_SESSION_RETENTION_DAYS = 90;

/** "Your listening" covers this many days, ending today in the listener's time zone. */
export const LISTENING_CALENDAR_DAYS = 365;

/** How many files the catalogue's and the listener's "most played" lists show. */
export const TOP_FILES = 10;

const DAY_MS = 86_400_000;

/** YYYY-MM-DD of a UTC instant. */
export function utcDay(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** Midnight UTC of `day` (YYYY-MM-DD), in ms since the epoch. */
function startOf(day: string): number {
  return Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
}

const twoDigits = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * `day` (YYYY-MM-DD) moved by `days` (may be negative). Without parsing or printing an ISO string:
 * a year's series walks 730 days, and this was a millisecond of each site dashboard answer.
 */
export function addDays(day: string, days: number): string {
  const moved = new Date(startOf(day) + days * DAY_MS);
  return `${String(moved.getUTCFullYear()).padStart(4, '0')}-${twoDigits(moved.getUTCMonth() + 1)}-${twoDigits(moved.getUTCDate())}`;
}

/** The Monday (YYYY-MM-DD) of the ISO week holding `day`. */
export function weekStart(day: string): string {
  // 1 January 1970 was a Thursday: 3 days after a Monday.
  const sinceMonday = (Math.floor(startOf(day) / DAY_MS) + 3) % 7;
  return addDays(day, -(sinceMonday < 0 ? sinceMonday + 7 : sinceMonday));
}

/** The bucket (its first day) that `day` falls in. */
export function bucketStart(day: string, bucket: InsightsBucket): string {
  return bucket === 'day' ? day : weekStart(day);
}

export interface PeriodRange {
  /** First and last day of the period, inclusive (UTC days). */
  from: string;
  to: string;
  /** The period of the same length just before it. */
  previousFrom: string;
  previousTo: string;
}

/** The `days` ending with `today` (inclusive), and the same number of days before them. */
export function periodRange(today: string, days: number): PeriodRange {
  const from = addDays(today, -(days - 1));
  return { from, to: today, previousFrom: addDays(from, -days), previousTo: addDays(from, -1) };
}

/** The first day of every bucket from `from` to `to` (inclusive), in order: a series' x axis. */
export function bucketStarts(from: string, to: string, bucket: InsightsBucket): string[] {
  const out: string[] = [];
  const step = bucket === 'day' ? 1 : 7;
  for (let day = bucketStart(from, bucket); day <= to; day = addDays(day, step)) out.push(day);
  return out;
}

/** Reads every creator's insights and the site dashboard: administrators (staff). */
export function readsAllInsights(user: { roles: readonly string[] } | null | undefined): boolean {
  return !!user && user.roles.includes('Administrator');
}

/** Whether `user` may read the insights of files uploaded by `creatorId`: that creator, or staff. */
export function canReadInsightsOf(
  user: { id: number; roles: readonly string[] },
  creatorId: number,
): boolean {
  return user.id === creatorId || readsAllInsights(user);
}

/** Whether figures from `listeners` distinct listeners may be shown. */
export function showable(listeners: number): boolean {
  return listeners >= MIN_LISTENERS;
}

/**
 * The retention parts a session heard, as a list of RETENTION_BINS flags: part i counts when the byte
 * at its middle was served (ranges are inclusive byte ranges of audio of `audioSize` bytes).
 */
export function heardParts(ranges: readonly (readonly [number, number])[], audioSize: number): boolean[] {
  const out: boolean[] = [];
  for (let i = 0; i < RETENTION_BINS; i++) {
    const middle = Math.floor(((i + 0.5) * audioSize) / RETENTION_BINS);
    out.push(ranges.some(([start, end]) => start <= middle && middle <= end));
  }
  return out;
}

/** The parts a play heard from the start up to `share` of the track (an offline copy's play). */
export function heardPartsFromStart(share: number): boolean[] {
  return Array.from({ length: RETENTION_BINS }, (_, i) => (i + 0.5) / RETENTION_BINS <= share);
}
