import { type PeriodRange, RETENTION_BINS } from '@mesmer/shared/domain/insights';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** Whose figures a read covers: one file, or every file a creator uploaded. */
export type InsightsScope = { fileId: number } | { creatorId: number };

export interface DayFigures {
  day: string;
  plays: number;
  listeningMs: number;
  shareHeard: number;
  completions: number;
  toyPlays: number;
  /** Distinct listeners of the day. */
  listeners: number;
  /** Listeners first counted in the day's ISO week on this day (a whole week's sum is its distinct listeners). */
  weekListeners: number;
}

/** Both drivers (node-postgres, PGlite) answer raw statements as { rows }. */
async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The site's events of one UTC day (the dashboard's counts). */
export interface SiteEventDay {
  day: string;
  signUps: number;
  uploads: number;
  messages: number;
  reportsOpened: number;
  reportsClosed: number;
}

/**
 * Counts the site's events of every UTC day from `first` to `last` (a row per day, zeros included),
 * whatever the database session's time zone: each count an index range scan of its table.
 */
function countedSiteEvents(first: string, last: string): SQL {
  const perDay = (table: string, column: string) => {
    const [events, at] = [sql.raw(table), sql.raw(column)];
    return sql`(select (${at} at time zone 'UTC')::date as day, count(*)::int as n from ${events}
      where ${at} >= (${first}::date)::timestamp at time zone 'UTC'
        and ${at} < (${last}::date + 1)::timestamp at time zone 'UTC'
      group by 1)`;
  };
  return sql`select d.day::date as day, coalesce(u.n, 0) as "signUps", coalesce(f.n, 0) as uploads,
      coalesce(m.n, 0) as messages, coalesce(o.n, 0) as "reportsOpened", coalesce(c.n, 0) as "reportsClosed"
    from generate_series(${first}::date, ${last}::date, interval '1 day') as d(day)
    left join ${perDay('users', 'created_at')} u on u.day = d.day
    left join ${perDay('files', 'created_at')} f on f.day = d.day
    left join ${perDay('messages', 'created_at')} m on m.day = d.day
    left join ${perDay('reports', 'created_at')} o on o.day = d.day
    left join ${perDay('reports', 'resolved_at')} c on c.day = d.day`;
}

/**
 * A scope's day rows (alias d) with their distinct listeners (day and week counts): a file's days, or
 * a creator's (kept per creator as plays end, not summed over their files).
 */
function daysOf(scope: InsightsScope): { rows: SQL; listeners: SQL; weekListeners: SQL } {
  return 'fileId' in scope
    ? {
        rows: sql`insights_file_days d left join insights_file_day_listeners b on b.file_id = d.file_id and b.day = d.day
          where d.file_id = ${scope.fileId}`,
        listeners: sql`coalesce(b.listeners, 0)`,
        weekListeners: sql`coalesce(b.week_listeners, 0)`,
      }
    : {
        rows: sql`insights_creator_days d where d.creator_id = ${scope.creatorId}`,
        listeners: sql`d.listeners`,
        weekListeners: sql`d.week_listeners`,
      };
}

/** A scope's plays by source (key, plays) from `from` to `to`. */
function sourcesOf(scope: InsightsScope, from: string, to: string): SQL {
  return 'fileId' in scope
    ? sql`select d.key, sum(d.plays)::int as plays from insights_file_day_counts d
        where d.file_id = ${scope.fileId} and d.dimension = 'source'
          and d.day between ${from}::date and ${to}::date
        group by d.key`
    : sql`select d.source as key, sum(d.plays)::int as plays from insights_creator_day_sources d
        where d.creator_id = ${scope.creatorId} and d.day between ${from}::date and ${to}::date
        group by d.source`;
}

/** The distinct-listener rows of a scope, as (day, listener_key). */
function listenersOf(scope: InsightsScope): SQL {
  return 'fileId' in scope
    ? sql`(select day, listener_key from insights_file_listeners where file_id = ${scope.fileId})`
    : sql`(select day, listener_key from insights_creator_listeners where creator_id = ${scope.creatorId})`;
}

/** The distinct listeners of closed spans of a period, kept once a day (insights_previous_listeners). */
export interface KeptListeners {
  /** Of the period before it. */
  previous: number;
  /** Of the days of its first week in it, when that week began before the period. */
  cutWeek: number | null;
  /**
   * Of the period before it per ISO week of the period (its days moved on by the period's length),
   * in the order of the period's weeks.
   */
  previousWeeks: number[];
}

/** What a scope's audience reads over a period and the one before it. */
export interface AudienceFigures {
  /** Day rows from the previous period's first day to the period's last (only days with rows). */
  days: DayFigures[];
  /** Distinct listeners of the period. */
  listeners: number;
  kept: KeptListeners | null;
  /** Plays by source over the period. */
  sources: { key: string; plays: number }[];
}

type DayTuple = [string, number, number, number, number, number, number, number];

/** How a scope is named in the kept previous-period figures and last-day counts. */
const scopeKey = (scope: InsightsScope) =>
  'fileId' in scope ? { scope: 'file', id: scope.fileId } : { scope: 'creator', id: scope.creatorId };

/** The SQL the insights calls read: rollups only (docs/decisions/047), never raw sessions. */
export function createInsightsRepo(db: Db) {
  return {
    async file(fileId: number) {
      const [row] = await rows<{
        id: number;
        uuid: string;
        name: string;
        duration: number;
        uploaderId: number;
      }>(
        db,
        sql`select id, uuid::text as uuid, name, duration, uploader_id as "uploaderId" from files where id = ${fileId}`,
      );
      return row ?? null;
    },

    /** A creator's name and how many files they uploaded. */
    async creator(userId: number) {
      const [row] = await rows<{ id: number; username: string; fileCount: number }>(
        db,
        sql`select id, username, (select count(*) from files where uploader_id = ${userId})::int as "fileCount"
            from users where id = ${userId}`,
      );
      return row ? { id: row.id, username: row.username, fileCount: Number(row.fileCount) } : null;
    },

    /**
     * A scope's audience over the period `range` and the one before it, in one statement (one round
     * trip and one plan instead of four): its day rows, the period's distinct listeners (the keys whose
     * last day is in it, summed from insights_listener_last_day_counts), the listeners kept for the
     * day, and its plays by source.
     */
    async audience(scope: InsightsScope, range: PeriodRange, period: number): Promise<AudienceFigures> {
      const { rows: dayRows, listeners, weekListeners } = daysOf(scope);
      const { scope: kind, id } = scopeKey(scope);
      const [row] = await rows<{
        days: DayTuple[];
        listeners: number;
        kept: [number, number | null, number[]] | null;
        sources: [string, number][];
      }>(
        db,
        sql`select
              (select coalesce(json_agg(json_build_array(d.day, d.plays, d.listening_ms, d.share_heard,
                  d.completions, d.toy_plays, ${listeners}, ${weekListeners}) order by d.day), '[]')
                from ${dayRows} and d.day between ${range.previousFrom}::date and ${range.to}::date) as days,
              (select coalesce(sum(keys), 0)::int from insights_listener_last_day_counts
                where scope = ${kind} and scope_id = ${id} and last_day >= ${range.from}::date) as listeners,
              (select json_build_array(listeners, cut_week_listeners, previous_week_listeners) from insights_previous_listeners
                where scope = ${kind} and scope_id = ${id} and day = ${range.to}::date and period = ${period}) as kept,
              (select coalesce(json_agg(json_build_array(s.key, s.plays)), '[]')
                from (${sourcesOf(scope, range.from, range.to)}) s) as sources`,
      );
      return {
        days: row.days.map(
          ([day, plays, listeningMs, shareHeard, completions, toyPlays, dayListeners, week]) => ({
            day,
            plays,
            listeningMs,
            shareHeard,
            completions,
            toyPlays,
            listeners: dayListeners,
            weekListeners: week,
          }),
        ),
        listeners: Number(row.listeners),
        kept: row.kept && { previous: row.kept[0], cutWeek: row.kept[1], previousWeeks: row.kept[2] },
        sources: row.sources.map(([key, plays]) => ({ key, plays })),
      };
    },

    /**
     * Distinct listeners from `from` to `to` (inclusive), counted over the day rows: for a closed
     * period or a few days. The keys are hex: compared bytewise (collate "C"), the sort behind the
     * distinct costs a third less than under the database's locale.
     */
    async listeners(scope: InsightsScope, from: string, to: string): Promise<number> {
      const [row] = await rows<{ n: number }>(
        db,
        sql`select count(distinct l.listener_key collate "C")::int as n from ${listenersOf(scope)} l
            where l.day between ${from}::date and ${to}::date`,
      );
      return Number(row.n);
    },

    /**
     * Distinct listeners of the period before `range` per ISO week of `range` its days fall in once
     * moved on by `period` days (the weekly series' previous period), by the week's Monday.
     */
    async previousWeekListeners(scope: InsightsScope, range: PeriodRange, period: number) {
      const found = await rows<{ start: string; n: number }>(
        db,
        sql`select w.start::text as start, count(distinct w.listener_key collate "C")::int as n
            from (select l.day + ${period}::int - (extract(isodow from l.day + ${period}::int)::int - 1) as start,
                    l.listener_key
                  from ${listenersOf(scope)} l
                  where l.day between ${range.previousFrom}::date and ${range.previousTo}::date) w
            group by w.start`,
      );
      return new Map(found.map((r) => [r.start, Number(r.n)]));
    },

    /** Keeps the closed spans' listeners for the day, dropping the scope's figures of earlier days. */
    async keepListeners(scope: InsightsScope, period: number, day: string, kept: KeptListeners) {
      const { scope: kind, id } = scopeKey(scope);
      await db.execute(
        sql`delete from insights_previous_listeners where scope = ${kind} and scope_id = ${id} and day < ${day}::date`,
      );
      await db.execute(
        sql`insert into insights_previous_listeners
              (scope, scope_id, period, day, listeners, cut_week_listeners, previous_week_listeners)
            values (${kind}, ${id}, ${period}, ${day}::date, ${kept.previous}, ${kept.cutWeek},
              ${`{${kept.previousWeeks.join(',')}}`}::int[])
            on conflict do nothing`,
      );
    },

    /**
     * A file's retention counts (plays that heard each part) over the period `range` (of `period`
     * days): those kept for its ended days (null when none are kept for the day) and its last day's;
     * and its plays by supporters' tier (key '' for none) with the tier's title and rank.
     */
    async fileDetails(fileId: number, range: PeriodRange, period: number) {
      const [row] = await rows<{
        kept: number[] | null;
        today: number[] | null;
        tiers: [string, number, string | null, number | null][];
      }>(
        db,
        sql`select
              (select retention from insights_kept_retention
                where file_id = ${fileId} and period = ${period} and day = ${range.to}::date) as kept,
              (select retention from insights_file_days where file_id = ${fileId} and day = ${range.to}::date) as today,
              (select coalesce(json_agg(json_build_array(c.key, c.plays, t.title, t.rank)), '[]')
                from (select d.key, sum(d.plays)::int as plays from insights_file_day_counts d
                      where d.file_id = ${fileId} and d.dimension = 'tier'
                        and d.day between ${range.from}::date and ${range.to}::date
                      group by d.key) c
                left join membership_tiers t on t.id = c.key) as tiers`,
      );
      return {
        keptRetention: row.kept?.map(Number) ?? null,
        todaysRetention: row.today?.map(Number) ?? null,
        tiers: row.tiers.map(([key, plays, title, rank]) => ({ key, plays, title, rank })),
      };
    },

    /**
     * Keeps the file's retention counts summed over the ended days of the period `range` (of `period`
     * days), dropping those of earlier days; answers them.
     */
    async keepRetention(fileId: number, range: PeriodRange, period: number): Promise<number[]> {
      // One sum per part in a single pass over the day rows: unnesting them and grouping by part
      // took 8 ms for a year of the most played file, this 0.9 ms.
      const parts = Array.from({ length: RETENTION_BINS }, (_, i) =>
        sql.raw(`coalesce(sum(d.retention[${i + 1}]), 0)::int`),
      );
      await db.execute(
        sql`delete from insights_kept_retention where file_id = ${fileId} and day < ${range.to}::date`,
      );
      const [row] = await rows<{ retention: number[] }>(
        db,
        sql`insert into insights_kept_retention (file_id, period, day, retention)
            select ${fileId}, ${period}, ${range.to}::date, array[${sql.join(parts, sql`, `)}]
            from insights_file_days d
            where d.file_id = ${fileId} and d.day between ${range.from}::date and ${range.to}::date - 1
            on conflict (file_id, day, period) do update set retention = excluded.retention
            returning retention`,
      );
      return row.retention.map(Number);
    },

    /** Public playlists holding the file: how many, and the first `limit` by id. */
    async playlistsWith(fileId: number, limit: number) {
      const found = await rows<{ id: number; uuid: string; name: string; total: number }>(
        db,
        sql`select p.id, p.uuid::text as uuid, p.name, count(*) over ()::int as total
            from playlists p
            where p.is_public and p.id in (select playlist_id from playlist_files where file_id = ${fileId})
            order by p.id limit ${limit}`,
      );
      return {
        count: found.length > 0 ? Number(found[0].total) : 0,
        items: found.map(({ id, uuid, name }) => ({ id, uuid, name })),
      };
    },

    /**
     * The creator's files with the most plays over the period `range` (of `period` days), with their
     * plays over the period before it: the kept plays of the days that have ended
     * (insights_kept_file_plays) plus the last day's own rows. Null when none are kept for the day.
     */
    async topFiles(creatorId: number, range: PeriodRange, period: number, limit: number) {
      const [row] = await rows<{
        kept: boolean | null;
        files: [number, string, string, number, number][];
      }>(
        db,
        sql`with kept as (
              select file_ids, plays, previous_plays from insights_kept_file_plays
              where creator_id = ${creatorId} and period = ${period} and day = ${range.to}::date
            )
            select (select true from kept) as kept,
              (select coalesce(json_agg(json_build_array(f.id, f.uuid, f.name, t.plays, t.previous_plays)
                  order by t.plays desc, f.id), '[]')
                from (
                  select u.file_id, sum(u.plays)::int as plays, sum(u.previous_plays)::int as previous_plays
                  from (
                    select unnest(k.file_ids) as file_id, unnest(k.plays) as plays,
                      unnest(k.previous_plays) as previous_plays
                    from kept k
                    union all
                    select d.file_id, d.plays, 0 from insights_file_days d
                    where d.file_id = any(array(select id from files where uploader_id = ${creatorId}))
                      and d.day = ${range.to}::date
                  ) u
                  group by u.file_id having sum(u.plays) > 0
                  order by 2 desc, u.file_id limit ${limit}
                ) t join files f on f.id = t.file_id) as files`,
      );
      if (!row.kept) return null;
      return row.files.map(([id, uuid, name, plays, previousPlays]) => ({
        id,
        uuid,
        name,
        plays,
        previousPlays,
      }));
    },

    /**
     * Keeps the creator's plays per file over the ended days of the period `range` and over the
     * period before it, dropping their kept plays of earlier days.
     */
    async keepFilePlays(creatorId: number, range: PeriodRange, period: number) {
      await db.execute(
        sql`delete from insights_kept_file_plays where creator_id = ${creatorId} and day < ${range.to}::date`,
      );
      await db.execute(
        sql`insert into insights_kept_file_plays (creator_id, period, day, file_ids, plays, previous_plays)
            select ${creatorId}, ${period}, ${range.to}::date, coalesce(array_agg(t.file_id), '{}'),
              coalesce(array_agg(t.plays), '{}'), coalesce(array_agg(t.previous_plays), '{}')
            from (
              select d.file_id,
                coalesce(sum(d.plays) filter (where d.day >= ${range.from}::date), 0)::int as plays,
                coalesce(sum(d.plays) filter (where d.day < ${range.from}::date), 0)::int as previous_plays
              from insights_file_days d
              where d.file_id = any(array(select id from files where uploader_id = ${creatorId}))
                and d.day between ${range.previousFrom}::date and ${range.to}::date - 1
              group by d.file_id having sum(d.plays) > 0
            ) t
            on conflict (creator_id, day, period) do nothing`,
      );
    },

    // "Your listening"

    async listener(userId: number) {
      const [row] = await rows<{
        points: number;
        streak: number;
        lastListenDay: string | null;
        timezone: string;
        insightsOptOut: boolean;
      }>(
        db,
        sql`select points, streak, last_listen_day::text as "lastListenDay", timezone,
              insights_opt_out as "insightsOptOut"
            from users where id = ${userId}`,
      );
      return row ?? null;
    },

    async listenerDays(userId: number, from: string, to: string) {
      const found = await rows<{ day: string; listenedMs: number }>(
        db,
        sql`select day::text as day, listened_ms::float8 as "listenedMs" from insights_listener_days
            where user_id = ${userId} and day between ${from}::date and ${to}::date order by day`,
      );
      return found.map((r) => ({ day: r.day, listenedMs: Number(r.listenedMs) }));
    },

    async listenerTopFiles(userId: number, limit: number) {
      const found = await rows<{
        id: number;
        uuid: string;
        name: string;
        plays: number;
        listeningMs: number;
      }>(
        db,
        sql`select f.id, f.uuid::text as uuid, f.name, l.plays, l.listened_ms::float8 as "listeningMs"
            from insights_listener_files l join files f on f.id = l.file_id
            where l.user_id = ${userId} and l.plays > 0
            order by l.plays desc nulls last, l.listened_ms desc nulls last, l.file_id limit ${limit}`,
      );
      return found.map((r) => ({ ...r, plays: Number(r.plays), listeningMs: Number(r.listeningMs) }));
    },

    /** Triggers the listener's played files train, by plays of those files (kept as plays end). */
    async listenerTriggers(userId: number, limit: number) {
      const found = await rows<{ id: number; name: string; plays: number }>(
        db,
        sql`select t.id, t.name, l.plays
            from insights_listener_triggers l join triggers t on t.id = l.trigger_id
            where l.user_id = ${userId}
            order by l.plays desc, l.trigger_id limit ${limit}`,
      );
      return found.map((r) => ({ ...r, plays: Number(r.plays) }));
    },

    async listenerPlans(userId: number) {
      const found = await rows<{
        id: number;
        uuid: string;
        name: string;
        position: number;
        playlistCount: number;
      }>(
        db,
        sql`select s.id, s.uuid::text as uuid, s.name, us.playlist_index as position,
              (select count(*) from series_playlists sp where sp.series_id = s.id)::int as "playlistCount"
            from user_series us join series s on s.id = us.series_id
            where us.user_id = ${userId} order by s.id`,
      );
      return found.map((r) => ({
        ...r,
        position: Number(r.position),
        playlistCount: Number(r.playlistCount),
      }));
    },

    // The site dashboard

    /**
     * The site's events per UTC day from `from` to `to` (each day in range once; days without any
     * may be left out): past days from insights_site_event_days, kept there the first time a view
     * needs them, and `today` counted live.
     */
    async siteEvents(from: string, to: string, today: string): Promise<SiteEventDay[]> {
      const yesterday = sql`(${today}::date - 1)`;
      const [missing] = await rows<{ first: string | null; last: string | null }>(
        db,
        sql`select min(d)::date::text as first, max(d)::date::text as last
            from generate_series(${from}::date, least(${to}::date, ${yesterday}), interval '1 day') d
            where not exists (select 1 from insights_site_event_days k where k.day = d::date)`,
      );
      if (missing?.first && missing.last) {
        await db.execute(
          sql`insert into insights_site_event_days
                (day, sign_ups, uploads, messages, reports_opened, reports_closed)
              ${countedSiteEvents(missing.first, missing.last)}
              on conflict (day) do nothing`,
        );
      }
      const found = await rows<SiteEventDay>(
        db,
        sql`select day::text as day, sign_ups as "signUps", uploads, messages,
              reports_opened as "reportsOpened", reports_closed as "reportsClosed"
            from insights_site_event_days where day between ${from}::date and ${to}::date
            union all
            select live.day::text, live."signUps", live.uploads, live.messages, live."reportsOpened", live."reportsClosed"
            from (${countedSiteEvents(today, today)}) live
            where live.day between ${from}::date and ${to}::date`,
      );
      return found.map((r) => ({
        day: String(r.day),
        signUps: Number(r.signUps),
        uploads: Number(r.uploads),
        messages: Number(r.messages),
        reportsOpened: Number(r.reportsOpened),
        reportsClosed: Number(r.reportsClosed),
      }));
    },

    /** Active signed-in listeners per day from `from` to `to` (insights_site_days; only days with any). */
    async activeListenersPerDay(from: string, to: string) {
      const found = await rows<{ day: string; n: number }>(
        db,
        sql`select day::text as day, active_listeners as n from insights_site_days
            where day between ${from}::date and ${to}::date order by day`,
      );
      return found.map((r) => ({ day: r.day, n: Number(r.n) }));
    },

    async siteNow() {
      const [row] = await rows<{ openReports: number; fileCount: number; storageBytes: string }>(
        db,
        sql`select (select count(*) from reports where resolution is null)::int as "openReports",
              (select file_count from insights_site_totals where id = 1)::int as "fileCount",
              (select audio_bytes from insights_site_totals where id = 1)::bigint as "storageBytes"`,
      );
      return {
        openReports: Number(row.openReports),
        fileCount: Number(row.fileCount),
        storageBytes: Number(row.storageBytes),
      };
    },
  };
}
