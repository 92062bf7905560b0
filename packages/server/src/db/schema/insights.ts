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
import { files } from './library.ts';

/**
 * Insights rollups (docs/decisions/047-insights-rollups.md): kept as listening sessions end, in the
 * end's transaction, and read by the insights calls; never recomputed per view. Days are UTC days of
 * the session's end, except the listener's own days (their time zone). Listeners who opted out of
 * insights add nothing to the file and creator rollups; their own days and files are theirs.
 */

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
  (t) => [primaryKey({ columns: [t.fileId, t.day] })],
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
