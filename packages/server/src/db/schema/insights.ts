import {
  bigint,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { files, triggers } from './library.ts';

/**
 * Insights rollups (docs/decisions/047-insights-rollups.md): kept as listening sessions end, in the
 * end's transaction, and read by the insights calls; never recomputed per view. Days are UTC days of
 * the session's end, except the listener's own days (their time zone). Listeners who opted out of
 * insights add nothing to the file and creator rollups; their own days and files are theirs.
 */

/**
 * Distinct listeners of a day's and a week's bucket, counted as plays end (the day's row of a
 * listener key is new: +1 to `listeners`; and no other day of its ISO week has one: +1 to
 * `week_listeners`), so a series reads sums instead of counting distinct keys.
 */
const bucketListeners = {
  /** Distinct listeners of the day. */
  listeners: integer('listeners').notNull().default(0),
  /** Listeners counted in the day's ISO week (Monday first) on this day: a week's sum is its distinct listeners. */
  weekListeners: integer('week_listeners').notNull().default(0),
};

/** Per file per day: counted plays and what they heard. */
export const insightsFileDays = pgTable(
  'insights_file_days',
  {
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    /** Counted plays (the listening module's play rule). */
    plays: integer('plays').notNull().default(0),
    /** Milliseconds heard by every ended session that heard something (plays or not). */
    listeningMs: bigint('listening_ms', { mode: 'number' }).notNull().default(0),
    /** Sum over plays of the share of the track heard (0-1 each). */
    shareHeard: doublePrecision('share_heard').notNull().default(0),
    /** Plays that heard at least COMPLETION_SHARE of the track. */
    completions: integer('completions').notNull().default(0),
    /** Plays with a toy connected. */
    toyPlays: integer('toy_plays').notNull().default(0),
    /** Plays that heard each of RETENTION_BINS equal parts of the track. */
    retention: integer('retention').array().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.fileId, t.day] }),
    // A file's figures over a period and a catalogue's top files (plays of 200 files × 730 days) are
    // index-only scans of this instead of reads of the wide rows (100 retention counts each), which
    // lie among every other file's of their day (top files 15 → 5 ms, a file's year 2.7 → 1.9 ms).
    index('insights_file_days_figures_idx').on(
      t.fileId,
      t.day,
      t.plays,
      t.listeningMs,
      t.shareHeard,
      t.completions,
      t.toyPlays,
    ),
  ],
);

/** Per file per day: its distinct listeners (apart from the wide insights_file_days rows). */
export const insightsFileDayListeners = pgTable(
  'insights_file_day_listeners',
  {
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    ...bucketListeners,
  },
  (t) => [
    primaryKey({ columns: [t.fileId, t.day] }),
    // Index-only beside insights_file_days_figures_idx: these rows too lie among other files'.
    index('insights_file_day_listeners_figures_idx').on(t.fileId, t.day, t.listeners, t.weekListeners),
  ],
);

/** Per file per day: plays by a dimension's key: `source` (PLAY_SOURCES or 'unknown'), `tier` (tier id or ''). */
export const insightsFileDayCounts = pgTable(
  'insights_file_day_counts',
  {
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    dimension: text('dimension').notNull(),
    key: text('key').notNull(),
    plays: integer('plays').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.fileId, t.day, t.dimension, t.key] }),
    // Plays by one dimension over a period: an index-only range per file, not a heap row per key.
    index('insights_file_day_counts_dimension_idx').on(t.fileId, t.dimension, t.day, t.key, t.plays),
  ],
);

/**
 * Distinct listeners of a file per day, by a pseudonymous key (a hash of the play's listener), so
 * unique listeners over any period are an exact count without keeping who listened in the clear.
 */
export const insightsFileListeners = pgTable(
  'insights_file_listeners',
  {
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    listenerKey: text('listener_key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.day, t.listenerKey] })],
);

/** Distinct listeners of any of a creator's (uploader's) files per day: the catalogue's unique listeners. */
export const insightsCreatorListeners = pgTable(
  'insights_creator_listeners',
  {
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    listenerKey: text('listener_key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.creatorId, t.day, t.listenerKey] })],
);

/** A signed-in listener's credited listening per local day (their calendar; the site's active listeners). */
export const insightsListenerDays = pgTable(
  'insights_listener_days',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** In the account's time zone at the session's end. */
    day: date('day').notNull(),
    listenedMs: bigint('listened_ms', { mode: 'number' }).notNull().default(0),
  },
  // No index by day: the site reads insights_site_days, not these rows.
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/**
 * Per day (the listeners' own days, as insights_listener_days): how many signed-in listeners were
 * active, i.e. that day's insights_listener_days rows, bumped when the end inserts a new listener
 * day. The site dashboard reads it instead of counting distinct users over the period.
 */
export const insightsSiteDays = pgTable('insights_site_days', {
  day: date('day').primaryKey(),
  activeListeners: integer('active_listeners').notNull().default(0),
});

/**
 * Per past UTC day: the site's events as the dashboard counts them (sign-ups, uploads, messages,
 * reports opened and closed). A day's row is written the first time a dashboard view needs that day
 * once it is over, and read from then on; today is counted live. Events are kept as they were
 * counted: a later deletion does not change a day already kept (docs/decisions/054).
 */
export const insightsSiteEventDays = pgTable('insights_site_event_days', {
  day: date('day').primaryKey(),
  signUps: integer('sign_ups').notNull(),
  uploads: integer('uploads').notNull(),
  messages: integer('messages').notNull(),
  reportsOpened: integer('reports_opened').notNull(),
  reportsClosed: integer('reports_closed').notNull(),
});

/** A signed-in listener's plays and listening per file, all time (their most played files and triggers). */
export const insightsListenerFiles = pgTable(
  'insights_listener_files',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    plays: integer('plays').notNull().default(0),
    listenedMs: bigint('listened_ms', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.fileId] }),
    // Their most played files: the first rows of this index, not a sort of all they ever played.
    index('insights_listener_files_top_idx').on(t.userId, t.plays.desc(), t.listenedMs.desc(), t.fileId),
  ],
);

/** Per creator (uploader) per day: insights_file_days summed over their files, as plays end (the catalogue). */
export const insightsCreatorDays = pgTable(
  'insights_creator_days',
  {
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    plays: integer('plays').notNull().default(0),
    listeningMs: bigint('listening_ms', { mode: 'number' }).notNull().default(0),
    shareHeard: doublePrecision('share_heard').notNull().default(0),
    completions: integer('completions').notNull().default(0),
    toyPlays: integer('toy_plays').notNull().default(0),
    ...bucketListeners,
  },
  (t) => [
    primaryKey({ columns: [t.creatorId, t.day] }),
    // Each day's row is written among every other creator's that day: a year of one creator's rows
    // sits on as many pages. Read as an index-only scan of this instead (730 rows: 1.6 → 0.7 ms).
    index('insights_creator_days_figures_idx').on(
      t.creatorId,
      t.day,
      t.plays,
      t.listeningMs,
      t.shareHeard,
      t.completions,
      t.toyPlays,
      t.listeners,
      t.weekListeners,
    ),
  ],
);

/** Per creator per day: plays by source (PLAY_SOURCES or 'unknown') over their files. */
export const insightsCreatorDaySources = pgTable(
  'insights_creator_day_sources',
  {
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    source: text('source').notNull(),
    plays: integer('plays').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.creatorId, t.day, t.source] }),
    // Index-only for a period's sources (as insights_creator_days_figures_idx): a year 5.9 → 1.0 ms.
    index('insights_creator_day_sources_plays_idx').on(t.creatorId, t.day, t.source, t.plays),
  ],
);

/**
 * The last day each listener key played a file: a period ending today has as many distinct
 * listeners as keys whose last day is in it (an index-only count instead of a distinct over days).
 */
export const insightsFileListenerLastDays = pgTable(
  'insights_file_listener_last_days',
  {
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    listenerKey: text('listener_key').notNull(),
    lastDay: date('last_day').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.fileId, t.listenerKey] }),
    index('insights_file_listener_last_days_day_idx').on(t.fileId, t.lastDay),
  ],
);

/** The last day each listener key played one of a creator's files (the catalogue's distinct listeners). */
export const insightsCreatorListenerLastDays = pgTable(
  'insights_creator_listener_last_days',
  {
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    listenerKey: text('listener_key').notNull(),
    lastDay: date('last_day').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.creatorId, t.listenerKey] }),
    index('insights_creator_listener_last_days_day_idx').on(t.creatorId, t.lastDay),
  ],
);

/** Kept figures of a file's or a creator's insights, without a foreign key to either: 'file' or 'creator', and its id. */
const scopedBy = {
  scope: text('scope').notNull(),
  scopeId: integer('scope_id').notNull(),
};

/**
 * Per scope ('file' or 'creator', as insights_previous_listeners) and day: how many listener keys
 * have that day as their last day (the two tables above), kept by row triggers on them (migration
 * 0030): a period's distinct listeners, the keys whose last day is in it, are a sum of at most a
 * year of rows instead of a count of up to 70,000 keys.
 */
export const insightsListenerLastDayCounts = pgTable(
  'insights_listener_last_day_counts',
  {
    ...scopedBy,
    lastDay: date('last_day').notNull(),
    keys: integer('keys').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.scopeId, t.lastDay] }),
    // Index-only: a year of a scope's rows lies on as many heap pages (365 → 3 buffers, 1.3 → 0.05 ms).
    index('insights_listener_last_day_counts_keys_idx').on(t.scope, t.scopeId, t.lastDay, t.keys),
  ],
);

/**
 * Kept figures: the distinct listeners of the period before a period of `period` days ending on `day`,
 * per scope (`file` / `creator` and its id), of the previous period per week it is drawn in (its days
 * moved on by `period` days, one count per ISO week of the period), and of the period's days in its
 * first ISO week when that week began before the period (a weekly series' first point; null
 * otherwise). Those spans have ended, so their figures are counted once a day; a listener row added for a day before `day` (a late offline session) deletes the scope's
 * figures from that day on (insights.repo.ts reads and writes them).
 */
export const insightsPreviousListeners = pgTable(
  'insights_previous_listeners',
  {
    ...scopedBy,
    period: integer('period').notNull(),
    day: date('day').notNull(),
    listeners: integer('listeners').notNull(),
    cutWeekListeners: integer('cut_week_listeners'),
    previousWeekListeners: integer('previous_week_listeners').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.scopeId, t.day, t.period] })],
);

/**
 * Kept figures: a creator's plays per file over the days of a period of `period` days ending on `day`
 * that have ended (all but `day`) and over the period before it, in three aligned arrays (files with
 * plays only). Their top files add `day`'s own rows to them instead of summing up to two years of day
 * rows per file (a year's largest catalogue: 13,800 rows, 3 ms). Kept the first time a view needs them
 * each day; a play added to an earlier day (an offline play ending late) drops the creator's rows from
 * that day on (insights-rollups.repo.ts, dropKeptAfter).
 */
export const insightsKeptFilePlays = pgTable(
  'insights_kept_file_plays',
  {
    // Gone with the account (as every rollup of theirs).
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    period: integer('period').notNull(),
    day: date('day').notNull(),
    fileIds: integer('file_ids').array().notNull(),
    plays: integer('plays').array().notNull(),
    previousPlays: integer('previous_plays').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.creatorId, t.day, t.period] })],
);

/**
 * Kept figures: a file's retention counts summed over the days of a period of `period` days ending on
 * `day` that have ended (all but `day`); a view adds `day`'s own row instead of summing a year of
 * 100-count arrays (the most played file: 0.9 ms). Kept and dropped as insights_kept_file_plays.
 */
export const insightsKeptRetention = pgTable(
  'insights_kept_retention',
  {
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    period: integer('period').notNull(),
    day: date('day').notNull(),
    retention: integer('retention').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.day, t.period] })],
);

/** Per signed-in listener: plays of files that train each trigger (their trained triggers), as plays end. */
export const insightsListenerTriggers = pgTable(
  'insights_listener_triggers',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    triggerId: integer('trigger_id')
      .notNull()
      .references(() => triggers.id, { onDelete: 'cascade' }),
    plays: integer('plays').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.triggerId] }),
    index('insights_listener_triggers_top_idx').on(t.userId, t.plays.desc(), t.triggerId),
  ],
);

/**
 * Site-wide running totals of `files`, kept by a trigger on it (every insert, size change, delete and
 * truncate, whichever module or tool writes it), so the dashboard does not count and sum 100,000 rows.
 * One row (id 1).
 */
export const insightsSiteTotals = pgTable('insights_site_totals', {
  id: integer('id').primaryKey(),
  fileCount: integer('file_count').notNull().default(0),
  /** The stored audio of every file whose size is known (storage used). */
  audioBytes: bigint('audio_bytes', { mode: 'number' }).notNull().default(0),
});
