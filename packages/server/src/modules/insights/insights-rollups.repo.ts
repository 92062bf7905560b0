import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  files,
  fileTiers,
  insightsCreatorDaySources,
  insightsCreatorDays,
  insightsCreatorListenerLastDays,
  insightsCreatorListeners,
  insightsFileDayCounts,
  insightsFileDayListeners,
  insightsFileDays,
  insightsFileListenerLastDays,
  insightsFileListeners,
  insightsKeptFilePlays,
  insightsKeptRetention,
  insightsListenerDays,
  insightsListenerFiles,
  insightsListenerLastDayCounts,
  insightsListenerTriggers,
  insightsPreviousListeners,
  insightsSiteDays,
  listeningSessions,
  membershipTiers,
  userMemberships,
  users,
} from '../../db/schema/index.ts';

/** What one ended session adds to a file's day (insights_file_days), already judged by the rollup rules. */
export interface FileDayAddition {
  fileId: number;
  day: string;
  plays: number;
  listeningMs: number;
  shareHeard: number;
  completions: number;
  toyPlays: number;
  /** RETENTION_BINS counts to add. */
  retention: readonly number[];
}

const intArray = (values: readonly number[]) => sql`${`{${values.join(',')}}`}::int[]`;
const dateArray = (days: readonly string[]) => sql`${`{${days.join(',')}}`}::date[]`;

/** What a scope (one file, or a creator's catalogue) keeps its distinct listeners in. */
const LISTENER_TABLES = {
  file: {
    buckets: insightsFileDayListeners,
    listeners: insightsFileListeners,
    lastDays: insightsFileListenerLastDays,
    id: sql.raw('file_id'),
  },
  creator: {
    buckets: insightsCreatorDays,
    listeners: insightsCreatorListeners,
    lastDays: insightsCreatorListenerLastDays,
    id: sql.raw('creator_id'),
  },
} as const;

export type ListenerScope = keyof typeof LISTENER_TABLES;

/** The SQL of the rollups kept as sessions end (docs/decisions/047); the rules are in insights-rollups.ts. */
export function createInsightsRollupsRepo(db: Db) {
  return {
    /** Whether the user opted out of being counted in creators' insights. */
    async optedOut(userId: number): Promise<boolean> {
      const [row] = await db.select({ optOut: users.insightsOptOut }).from(users).where(eq(users.id, userId));
      return row?.optOut ?? false;
    },

    /**
     * For a tier-locked file: the tier id the user holds (active) of the creator of one of the file's
     * tiers, the highest rank; '' when they hold none (its uploader, staff). null: the file is not locked.
     */
    async supporterTier(userId: number | null, fileId: number): Promise<string | null> {
      const locks = await db
        .select({ creatorName: membershipTiers.creatorName })
        .from(fileTiers)
        .innerJoin(membershipTiers, eq(membershipTiers.id, fileTiers.tierId))
        .where(eq(fileTiers.fileId, fileId));
      if (locks.length === 0) return null;
      if (userId === null) return '';
      const [held] = await db
        .select({ id: membershipTiers.id })
        .from(userMemberships)
        .innerJoin(membershipTiers, eq(membershipTiers.id, userMemberships.tierId))
        .where(
          and(
            eq(userMemberships.userId, userId),
            eq(userMemberships.active, true),
            sql`${membershipTiers.creatorName} in (${sql.join(
              locks.map((l) => sql`${l.creatorName}`),
              sql`, `,
            )})`,
          ),
        )
        .orderBy(sql`${membershipTiers.rank} desc`, membershipTiers.id)
        .limit(1);
      return held?.id ?? '';
    },

    /** Keeps the session's insight detail (cleared with its served ranges after the retention window). */
    async recordSessionDetail(
      sessionId: number,
      detail: { toyConnected: boolean | null; supporterTierId: string | null; source?: string },
    ) {
      await db.update(listeningSessions).set(detail).where(eq(listeningSessions.id, sessionId));
    },

    async addFileDay(a: FileDayAddition) {
      await db
        .insert(insightsFileDays)
        .values({
          fileId: a.fileId,
          day: a.day,
          plays: a.plays,
          listeningMs: a.listeningMs,
          shareHeard: a.shareHeard,
          completions: a.completions,
          toyPlays: a.toyPlays,
          retention: sql`${intArray(a.retention)}`,
        })
        .onConflictDoUpdate({
          target: [insightsFileDays.fileId, insightsFileDays.day],
          set: {
            plays: sql`${insightsFileDays.plays} + excluded.plays`,
            listeningMs: sql`${insightsFileDays.listeningMs} + excluded.listening_ms`,
            shareHeard: sql`${insightsFileDays.shareHeard} + excluded.share_heard`,
            completions: sql`${insightsFileDays.completions} + excluded.completions`,
            toyPlays: sql`${insightsFileDays.toyPlays} + excluded.toy_plays`,
            retention: sql`array(select coalesce(a, 0) + coalesce(b, 0) from unnest(${insightsFileDays.retention}, excluded.retention) with ordinality as t(a, b, i) order by i)`,
          },
        });
    },

    /**
     * Drops what was kept for periods ending after `day` (a play added to `day` when that day has
     * ended: an offline play's): the file's retention and its creator's plays per file.
     */
    async dropKeptAfter(fileId: number, creatorId: number | null, day: string) {
      await db
        .delete(insightsKeptRetention)
        .where(
          and(eq(insightsKeptRetention.fileId, fileId), sql`${insightsKeptRetention.day} > ${day}::date`),
        );
      if (creatorId === null) return;
      await db
        .delete(insightsKeptFilePlays)
        .where(
          and(
            eq(insightsKeptFilePlays.creatorId, creatorId),
            sql`${insightsKeptFilePlays.day} > ${day}::date`,
          ),
        );
    },

    /** The file's uploader (whose catalogue a play of it adds to); null for an unknown file. */
    async uploaderOf(fileId: number): Promise<number | null> {
      const [row] = await db.select({ id: files.uploaderId }).from(files).where(eq(files.id, fileId));
      return row?.id ?? null;
    },

    /** What a session adds to its creator's day: the file day's figures without retention. */
    async addCreatorDay(creatorId: number, a: FileDayAddition) {
      await db
        .insert(insightsCreatorDays)
        .values({
          creatorId,
          day: a.day,
          plays: a.plays,
          listeningMs: a.listeningMs,
          shareHeard: a.shareHeard,
          completions: a.completions,
          toyPlays: a.toyPlays,
        })
        .onConflictDoUpdate({
          target: [insightsCreatorDays.creatorId, insightsCreatorDays.day],
          set: {
            plays: sql`${insightsCreatorDays.plays} + excluded.plays`,
            listeningMs: sql`${insightsCreatorDays.listeningMs} + excluded.listening_ms`,
            shareHeard: sql`${insightsCreatorDays.shareHeard} + excluded.share_heard`,
            completions: sql`${insightsCreatorDays.completions} + excluded.completions`,
            toyPlays: sql`${insightsCreatorDays.toyPlays} + excluded.toy_plays`,
          },
        });
    },

    async addCreatorSource(creatorId: number, day: string, source: string) {
      await db
        .insert(insightsCreatorDaySources)
        .values({ creatorId, day, source, plays: 1 })
        .onConflictDoUpdate({
          target: [
            insightsCreatorDaySources.creatorId,
            insightsCreatorDaySources.day,
            insightsCreatorDaySources.source,
          ],
          set: { plays: sql`${insightsCreatorDaySources.plays} + 1` },
        });
    },

    async addFileDayCount(
      fileId: number,
      day: string,
      dimension: 'source' | 'tier',
      key: string,
      plays: number,
    ) {
      await db
        .insert(insightsFileDayCounts)
        .values({ fileId, day, dimension, key, plays })
        .onConflictDoUpdate({
          target: [
            insightsFileDayCounts.fileId,
            insightsFileDayCounts.day,
            insightsFileDayCounts.dimension,
            insightsFileDayCounts.key,
          ],
          set: { plays: sql`${insightsFileDayCounts.plays} + excluded.plays` },
        });
    },

    /**
     * The listener (by key) played in the scope (a file, or a creator's catalogue) on `day`. When that
     * is the key's first play of the day there: the day has one more distinct listener, and so does
     * the day's ISO week unless another of the week's days (`weekDays`) already has the key; the key's
     * last day moves on; and kept previous-period figures from after `day` are dropped (a late
     * offline play can land in a closed period). One statement.
     */
    async addListener(
      scope: ListenerScope,
      scopeId: number,
      day: string,
      weekDays: string[],
      listenerKey: string,
    ) {
      const t = LISTENER_TABLES[scope];
      const otherDays = weekDays.filter((d) => d !== day);
      await db.execute(sql`
        with added as (
          insert into ${t.listeners} (${t.id}, day, listener_key) values (${scopeId}, ${day}::date, ${listenerKey})
          on conflict do nothing
          returning day
        ), bucket as (
          insert into ${t.buckets} (${t.id}, day, listeners, week_listeners)
          select ${scopeId}, day, 1, (not exists (
              select 1 from ${t.listeners} l
              where l.${t.id} = ${scopeId} and l.day = any(${dateArray(otherDays)}) and l.listener_key = ${listenerKey}
            ))::int
          from added
          on conflict (${t.id}, day) do update set listeners = ${t.buckets}.listeners + 1,
            week_listeners = ${t.buckets}.week_listeners + excluded.week_listeners
        ), last as (
          insert into ${t.lastDays} (${t.id}, listener_key, last_day)
          select ${scopeId}, ${listenerKey}, day from added
          on conflict (${t.id}, listener_key) do update
            set last_day = greatest(${t.lastDays}.last_day, excluded.last_day)
        )
        delete from ${insightsPreviousListeners}
        where scope = ${scope} and scope_id = ${scopeId} and day > ${day}::date and exists (select 1 from added)`);
    },

    /**
     * Adds to the listener's day; when that inserted a new listener day, the day has one more active
     * listener (insights_site_days). One statement: `xmax = 0` marks a row the upsert inserted.
     */
    async addListenerDay(userId: number, day: string, listenedMs: number) {
      await db.execute(sql`
        with added as (
          insert into ${insightsListenerDays} (user_id, day, listened_ms)
          values (${userId}, ${day}::date, ${listenedMs})
          on conflict (user_id, day) do update
            set listened_ms = ${insightsListenerDays}.listened_ms + excluded.listened_ms
          returning day, (xmax = 0) as inserted
        )
        insert into ${insightsSiteDays} (day, active_listeners)
        select day, 1 from added where inserted
        on conflict (day) do update set active_listeners = ${insightsSiteDays}.active_listeners + 1`);
    },

    async addListenerFile(userId: number, fileId: number, plays: number, listenedMs: number) {
      await db
        .insert(insightsListenerFiles)
        .values({ userId, fileId, plays, listenedMs })
        .onConflictDoUpdate({
          target: [insightsListenerFiles.userId, insightsListenerFiles.fileId],
          set: {
            plays: sql`${insightsListenerFiles.plays} + excluded.plays`,
            listenedMs: sql`${insightsListenerFiles.listenedMs} + excluded.listened_ms`,
          },
        });
    },

    /** One more play of each trigger the file trains, for the listener (their trained triggers). */
    async addListenerTriggers(userId: number, fileId: number) {
      await db.execute(sql`
        insert into ${insightsListenerTriggers} (user_id, trigger_id, plays)
        select ${userId}, trigger_id, 1 from file_triggers where file_id = ${fileId} and trains
        on conflict (user_id, trigger_id) do update set plays = ${insightsListenerTriggers}.plays + 1`);
    },

    /** Empties every rollup (before a rebuild from the raw sessions). */
    async clearAll() {
      for (const table of [
        insightsFileDays,
        insightsFileDayCounts,
        insightsFileListeners,
        insightsCreatorListeners,
        insightsListenerDays,
        insightsListenerFiles,
        insightsSiteDays,
        insightsCreatorDays,
        insightsCreatorDaySources,
        insightsFileDayListeners,
        insightsFileListenerLastDays,
        insightsCreatorListenerLastDays,
        // Emptied by the last days' delete triggers; any row left at 0 goes too.
        insightsListenerLastDayCounts,
        insightsPreviousListeners,
        insightsKeptFilePlays,
        insightsKeptRetention,
        insightsListenerTriggers,
      ]) {
        await db.delete(table);
      }
    },

    /** Ended sessions with a file, in id order, after `afterId`: what a rebuild reads, a batch at a time. */
    async endedSessions(afterId: number, limit: number) {
      return db
        .select({
          id: listeningSessions.id,
          userId: listeningSessions.userId,
          fileId: listeningSessions.fileId,
          startedAt: listeningSessions.startedAt,
          endedAt: listeningSessions.endedAt,
          creditedMs: listeningSessions.creditedMs,
          audioSize: listeningSessions.audioSize,
          servedRanges: listeningSessions.servedRanges,
          playListener: listeningSessions.playListener,
          offline: listeningSessions.offline,
          source: listeningSessions.source,
          toyConnected: listeningSessions.toyConnected,
          supporterTierId: listeningSessions.supporterTierId,
          duration: sql<number>`(select duration from files where id = ${listeningSessions.fileId})`,
          timezone: sql<string | null>`(select timezone from users where id = ${listeningSessions.userId})`,
        })
        .from(listeningSessions)
        .where(
          and(
            sql`${listeningSessions.id} > ${afterId}`,
            sql`${listeningSessions.endedAt} is not null`,
            sql`${listeningSessions.fileId} is not null`,
          ),
        )
        .orderBy(listeningSessions.id)
        .limit(limit);
    },
  };
}
