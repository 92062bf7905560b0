import type {
  Audience,
  CatalogueInsightsResponse,
  ComparedFigure,
  FileInsightsResponse,
  ListeningInsightsResponse,
  SiteInsightsResponse,
} from '@mesmer/shared/api/insights';
import {
  addDays,
  bucketStart,
  bucketStarts,
  type InsightsBucket,
  LISTENING_CALENDAR_DAYS,
  MIN_LISTENERS,
  type PeriodRange,
  PLAY_SOURCES,
  periodRange,
  RETENTION_BINS,
  showable,
  TOP_FILES,
  UNKNOWN_SOURCE,
  utcDay,
} from '@mesmer/shared/domain/insights';
import { levelProgress } from '@mesmer/shared/domain/levels';
import { currentStreak, daysBetween, localDay } from '@mesmer/shared/domain/streak';
import type { Db } from '../../db/client.ts';
import { type Access, requireUser, type SessionUser } from '../../platform/access.ts';
import type { Clock } from '../../platform/clock.ts';
import { NotFound } from '../../platform/errors.ts';
import type { Metrics } from '../../platform/metrics.ts';
import {
  createInsightsRepo,
  type DayFigures,
  type InsightsScope,
  type KeptListeners,
} from './insights.repo.ts';

export interface InsightsInput {
  period: number;
  bucket: InsightsBucket;
}

const MINUTE_MS = 60_000;
/** Playlists listed by name on a file's insights (all are counted). */
const PLAYLISTS_SHOWN = 10;
const STREAK_RUNS_SHOWN = 20;
const TRIGGERS_SHOWN = 20;

interface Totals {
  plays: number;
  listeningMs: number;
  shareHeard: number;
  completions: number;
  toyPlays: number;
}

function totalsOf(days: DayFigures[], from: string, to: string): Totals {
  const out = { plays: 0, listeningMs: 0, shareHeard: 0, completions: 0, toyPlays: 0 };
  for (const d of days) {
    if (d.day < from || d.day > to) continue;
    out.plays += d.plays;
    out.listeningMs += d.listeningMs;
    out.shareHeard += d.shareHeard;
    out.completions += d.completions;
    out.toyPlays += d.toyPlays;
  }
  return out;
}

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : 0);

function periodOf(range: PeriodRange, days: number, bucket: InsightsBucket) {
  return { days, bucket, ...range };
}

/** Maximal runs of consecutive days in `days` (sorted YYYY-MM-DD). */
function runsOf(days: string[]): { from: string; to: string; days: number }[] {
  const runs: { from: string; to: string; days: number }[] = [];
  for (const day of days) {
    const last = runs[runs.length - 1];
    if (last && daysBetween(last.to, day) === 1) {
      last.to = day;
      last.days += 1;
    } else runs.push({ from: day, to: day, days: 1 });
  }
  return runs;
}

/** The days of a period's first ISO week that lie in the period, when that week began before it. */
function cutWeekOf(range: PeriodRange): { from: string; to: string } | null {
  const monday = bucketStart(range.from, 'week');
  return monday === range.from ? null : { from: range.from, to: addDays(monday, 6) };
}

/**
 * Distinct listeners per bucket of the period: a day's are kept on its row, a week's are the sum of
 * its days' week counts; a first week cut by the period's start has its own count (`cutWeek`).
 */
function listenersPerBucket(
  days: DayFigures[],
  range: PeriodRange,
  bucket: InsightsBucket,
  cutWeek: number | null,
): Map<string, number> {
  const perBucket = new Map<string, number>();
  for (const d of days) {
    if (d.day < range.from) continue;
    const start = bucketStart(d.day, bucket);
    perBucket.set(start, (perBucket.get(start) ?? 0) + (bucket === 'day' ? d.listeners : d.weekListeners));
  }
  const cut = cutWeekOf(range);
  if (bucket === 'week' && cut) perBucket.set(bucketStart(cut.from, bucket), cutWeek ?? 0);
  return perBucket;
}

export type InsightsService = ReturnType<typeof createInsightsService>;

/**
 * The insights calls (issue 32, docs/decisions/047). Each begins with its access check and reads the
 * rollups the listening module keeps as sessions end; figures from fewer than MIN_LISTENERS distinct
 * listeners are withheld, and no answer ever says who listened.
 */
export function createInsightsService({
  db,
  clock,
  access,
  metrics,
}: {
  db: Db;
  clock: Clock;
  access: Access;
  metrics: Metrics;
}) {
  const repo = createInsightsRepo(db);

  /**
   * The distinct listeners of the period before `range` (in all and per week it is drawn in) and of
   * the period's cut first week, spans that have ended (periods are 7 days or more): kept once a day per scope and period (insights_previous_listeners), counted
   * over the listener rows the first time.
   */
  async function closedListeners(
    scope: InsightsScope,
    range: PeriodRange,
    period: number,
    kept: KeptListeners | null,
  ): Promise<KeptListeners> {
    if (kept) return kept;
    const cut = cutWeekOf(range);
    const [previous, cutWeek, perWeek] = await Promise.all([
      repo.listeners(scope, range.previousFrom, range.previousTo),
      cut ? repo.listeners(scope, cut.from, cut.to) : null,
      repo.previousWeekListeners(scope, range, period),
    ]);
    const previousWeeks = bucketStarts(range.from, range.to, 'week').map((start) => perWeek.get(start) ?? 0);
    const counted = { previous, cutWeek, previousWeeks };
    await repo.keepListeners(scope, period, range.to, counted);
    return counted;
  }

  /**
   * A creator's top files over the period, from their plays per file kept for the day (kept first
   * when they are not yet; a late offline play may drop them again in between, hence the retries).
   */
  async function topFilesOf(creatorId: number, range: PeriodRange, period: number) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const found = await repo.topFiles(creatorId, range, period, TOP_FILES);
      if (found) return found;
      await repo.keepFilePlays(creatorId, range, period);
    }
    throw new Error(`Top files of creator ${creatorId}: the kept plays were dropped three times in a row.`);
  }

  /** Plays and, from MIN_LISTENERS listeners on, the audience of a scope over the period. */
  async function audienceOf(scope: InsightsScope, range: PeriodRange, input: InsightsInput) {
    const { bucket } = input;
    const figures = await repo.audience(scope, range, input.period);
    const { days, listeners } = figures;
    const current = totalsOf(days, range.from, range.to);
    const previous = totalsOf(days, range.previousFrom, range.previousTo);
    const plays: ComparedFigure = { current: current.plays, previous: previous.plays };
    if (!showable(listeners)) {
      return {
        plays,
        audience: { withheld: true, minListeners: MIN_LISTENERS } as Audience,
        current,
        shown: false,
      };
    }
    const closed = await closedListeners(scope, range, input.period, figures.kept);
    const listenersBefore = closed.previous;
    const previousShown = showable(listenersBefore);
    const compared = (now: number, before: number): ComparedFigure => ({
      current: now,
      previous: previousShown ? before : null,
    });
    const bucketListeners = listenersPerBucket(days, range, bucket, closed.cutWeek);
    // A previous period's day counts in the bucket of the day `period` days later.
    const playsPerBucket = new Map<string, number>();
    const previousPerBucket = new Map<string, number>();
    const previousDayListeners = new Map<string, number>();
    for (const d of days) {
      const [day, sums] =
        d.day < range.from ? [addDays(d.day, input.period), previousPerBucket] : [d.day, playsPerBucket];
      const start = bucketStart(day, bucket);
      sums.set(start, (sums.get(start) ?? 0) + d.plays);
      if (d.day < range.from) previousDayListeners.set(day, d.listeners);
    }
    const starts = bucketStarts(range.from, range.to, bucket);
    const previousListenersAt = (start: string, i: number) =>
      !previousShown
        ? null
        : bucket === 'day'
          ? (previousDayListeners.get(start) ?? 0)
          : (closed.previousWeeks[i] ?? 0);
    const bySource = new Map(figures.sources.map((s) => [s.key, s.plays]));
    const audience: Audience = {
      withheld: false,
      listeners: compared(listeners, listenersBefore),
      listeningMs: compared(current.listeningMs, previous.listeningMs),
      averageShareHeard: compared(
        ratio(current.shareHeard, current.plays),
        ratio(previous.shareHeard, previous.plays),
      ),
      completionRate: compared(
        ratio(current.completions, current.plays),
        ratio(previous.completions, previous.plays),
      ),
      series: starts.map((start, i) => ({
        start,
        plays: playsPerBucket.get(start) ?? 0,
        listeners: bucketListeners.get(start) ?? 0,
        previousPlays: previousPerBucket.get(start) ?? 0,
        previousListeners: previousListenersAt(start, i),
      })),
      sources: [...PLAY_SOURCES, UNKNOWN_SOURCE as typeof UNKNOWN_SOURCE]
        .map((source) => ({ source, plays: bySource.get(source) ?? 0 }))
        .filter((s) => s.plays > 0),
      toyPlays: current.toyPlays,
      toyShare: ratio(current.toyPlays, current.plays),
    };
    return { plays, audience, current, shown: true };
  }

  return {
    /** One file's insights: its uploader or staff; a file the user cannot see reads as unknown. */
    async file(
      user: SessionUser | null,
      fileId: number,
      input: InsightsInput,
    ): Promise<FileInsightsResponse> {
      const signedIn = requireUser(user);
      const viewer = await access.viewer(signedIn);
      const file = (await access.files.visible(viewer, [fileId])).has(fileId)
        ? await repo.file(fileId)
        : null;
      if (!file) throw new NotFound('File not found.');
      access.insights.requireCreatorInsights(
        signedIn,
        file.uploaderId,
        'Only the uploader or staff see its insights.',
      );

      const range = periodRange(utcDay(clock.now()), input.period);
      const scope = { fileId };
      const [{ plays, audience, current, shown }, playlists] = await Promise.all([
        audienceOf(scope, range, input),
        repo.playlistsWith(fileId, PLAYLISTS_SHOWN),
      ]);
      let retention: number[] | null = null;
      let tiers: FileInsightsResponse['tiers'] = null;
      if (shown) {
        const details = await repo.fileDetails(fileId, range, input.period);
        const kept = details.keptRetention ?? (await repo.keepRetention(fileId, range, input.period));
        retention = Array.from({ length: RETENTION_BINS }, (_, i) =>
          ratio((kept[i] ?? 0) + (details.todaysRetention?.[i] ?? 0), current.plays),
        );
        if (details.tiers.length > 0) {
          tiers = details.tiers
            .map(({ key, plays: n, title, rank }) => ({
              tierId: title === null ? null : key,
              name: title ?? 'No tier',
              rank: rank ?? 0,
              plays: n,
            }))
            .sort((a, b) => b.rank - a.rank || (a.tierId ?? '').localeCompare(b.tierId ?? ''));
        }
      }
      return {
        file: {
          id: file.id,
          uuid: file.uuid,
          name: file.name,
          duration: file.duration,
          uploaderId: file.uploaderId,
        },
        period: periodOf(range, input.period, input.bucket),
        plays,
        audience,
        retention,
        tiers,
        playlists,
      };
    },

    /** A creator's whole catalogue: themselves or staff. */
    async catalogue(
      user: SessionUser | null,
      creatorId: number,
      input: InsightsInput,
    ): Promise<CatalogueInsightsResponse> {
      const signedIn = requireUser(user);
      access.insights.requireCreatorInsights(
        signedIn,
        creatorId,
        "Only staff see another creator's insights.",
      );
      const creator = await repo.creator(creatorId);
      if (!creator) throw new NotFound('User not found.');
      const range = periodRange(utcDay(clock.now()), input.period);
      const [{ plays, audience }, topFiles] = await Promise.all([
        audienceOf({ creatorId }, range, input),
        topFilesOf(creatorId, range, input.period),
      ]);
      return {
        creator: { id: creator.id, username: creator.username },
        period: periodOf(range, input.period, input.bucket),
        fileCount: creator.fileCount,
        plays,
        audience,
        topFiles,
      };
    },

    /** "Your listening": the signed-in user's own practice. */
    async listening(user: SessionUser | null): Promise<ListeningInsightsResponse> {
      const signedIn = requireUser(user);
      const account = await repo.listener(signedIn.id);
      if (!account) throw new NotFound('User not found.');
      const today = localDay(clock.now(), account.timezone);
      const from = addDays(today, -(LISTENING_CALENDAR_DAYS - 1));
      const viewer = await access.viewer(signedIn);
      const [stored, top, trainedTriggers, plans] = await Promise.all([
        repo.listenerDays(signedIn.id, from, today),
        repo.listenerTopFiles(signedIn.id, TOP_FILES * 3),
        repo.listenerTriggers(signedIn.id, TRIGGERS_SHOWN),
        repo.listenerPlans(signedIn.id),
      ]);
      const days = stored
        .map((d) => ({ day: d.day, minutes: Math.floor(d.listenedMs / MINUTE_MS) }))
        .filter((d) => d.minutes > 0);
      const runs = runsOf(days.map((d) => d.day));
      const current = currentStreak({ streak: account.streak, lastDay: account.lastListenDay }, today);
      const visible = await access.files.visible(
        viewer,
        top.map((f) => f.id),
      );
      return {
        timezone: account.timezone,
        from,
        to: today,
        days,
        totalMinutes: days.reduce((sum, d) => sum + d.minutes, 0),
        streak: { current, longest: Math.max(current, ...runs.map((r) => r.days)) },
        streakHistory: runs.reverse().slice(0, STREAK_RUNS_SHOWN),
        level: levelProgress(account.points),
        topFiles: top.filter((f) => visible.has(f.id)).slice(0, TOP_FILES),
        trainedTriggers,
        plans: plans.map((p) => ({
          id: p.id,
          uuid: p.uuid,
          name: p.name,
          done: Math.min(p.playlistCount, Math.max(0, p.position - 1)),
          playlistCount: p.playlistCount,
        })),
        insightsOptOut: account.insightsOptOut,
      };
    },

    /** The site dashboard: administrators only. */
    async site(user: SessionUser | null, input: InsightsInput): Promise<SiteInsightsResponse> {
      access.insights.requireSiteInsights(user);
      const today = utcDay(clock.now());
      const range = periodRange(today, input.period);
      const [events, activeDays, now, errors] = await Promise.all([
        repo.siteEvents(range.previousFrom, range.to, today),
        repo.activeListenersPerDay(range.previousFrom, range.to),
        repo.siteNow(),
        serverErrors(metrics),
      ]);
      const kinds = ['signUps', 'uploads', 'messages', 'reportsOpened', 'reportsClosed'] as const;
      type Kind = (typeof kinds)[number];
      const empty = () => ({ signUps: 0, uploads: 0, messages: 0, reportsOpened: 0, reportsClosed: 0 });
      const buckets = new Map(
        bucketStarts(range.from, range.to, input.bucket).map((start) => [start, empty()]),
      );
      const current = empty();
      const previous = empty();
      for (const e of events) {
        if (e.day < range.from) {
          for (const kind of kinds) previous[kind] += e[kind];
          continue;
        }
        const bucket = buckets.get(bucketStart(e.day, input.bucket));
        for (const kind of kinds) {
          current[kind] += e[kind];
          if (bucket) bucket[kind] += e[kind];
        }
      }
      const active = averageDailyActive(activeDays, range, input.bucket);
      return {
        period: periodOf(range, input.period, input.bucket),
        series: [...buckets].map(([day, counts]) => ({
          day,
          activeListeners: active.perBucket.get(day) ?? 0,
          ...counts,
        })),
        totals: {
          activeListeners: active.totals,
          ...(Object.fromEntries(
            kinds.map((k) => [k, { current: current[k], previous: previous[k] }]),
          ) as Record<Kind, ComparedFigure>),
        },
        openReports: now.openReports,
        storageBytes: now.storageBytes,
        fileCount: now.fileCount,
        errors,
      };
    },
  };
}

/**
 * Average daily active listeners (whole listeners): per bucket over its days in the period, and over
 * the period against the previous one. Daily actives add up, distinct listeners over many days would
 * not: docs/decisions/047.
 */
function averageDailyActive(
  activeDays: { day: string; n: number }[],
  range: PeriodRange,
  bucket: InsightsBucket,
): { perBucket: Map<string, number>; totals: ComparedFigure } {
  const perDay = new Map(activeDays.map((d) => [d.day, d.n]));
  const sums = new Map<string, { n: number; days: number }>();
  let current = 0;
  let days = 0;
  for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
    const n = perDay.get(day) ?? 0;
    const start = bucketStart(day, bucket);
    const sum = sums.get(start) ?? { n: 0, days: 0 };
    sum.n += n;
    sum.days += 1;
    sums.set(start, sum);
    current += n;
    days += 1;
  }
  let previous = 0;
  let previousDays = 0;
  for (let day = range.previousFrom; day <= range.previousTo; day = addDays(day, 1)) {
    previous += perDay.get(day) ?? 0;
    previousDays += 1;
  }
  const average = (n: number, over: number) => (over > 0 ? Math.round(n / over) : 0);
  return {
    perBucket: new Map([...sums].map(([start, sum]) => [start, average(sum.n, sum.days)])),
    totals: { current: average(current, days), previous: average(previous, previousDays) },
  };
}

/** Server errors (5xx answers) this process counted, from the request metrics /metrics serves. */
async function serverErrors(metrics: Metrics): Promise<number> {
  const { values } = await metrics.requestDuration.get();
  return values
    .filter((v) => v.metricName?.endsWith('_count') && Number(v.labels.status_code) >= 500)
    .reduce((sum, v) => sum + v.value, 0);
}
