import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { files } from './library.ts';

/**
 * Audio listening sessions (POST /api/session). Only the SHA-256 of the token is stored.
 * A session is bound to the file whose audio the media route first served under it, and
 * remembers which bytes of that audio it served. It ends once; `points` is what its end awarded.
 */
export const listeningSessions = pgTable(
  'listening_sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    /** null for anonymous listeners. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    fileId: integer('file_id').references(() => files.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    points: integer('points').notNull().default(0),
    /** Listening time this session added to the user's count (whole minutes become points). */
    creditedMs: integer('credited_ms').notNull().default(0),
    /** Size in bytes of the audio served under this session. */
    audioSize: bigint('audio_size', { mode: 'number' }),
    /** The distinct byte ranges of that audio served, merged, inclusive: [[start, end], …]. */
    servedRanges: jsonb('served_ranges').$type<[number, number][]>().notNull().default([]),
    /** Who this session's play of the file was counted for (`user:<id>` or `ip:<hash>`); null when none was. */
    playListener: text('play_listener'),
    /** Sent after the fact by POST /api/session/offline (a play of a kept copy); stored only when credited. */
    offline: boolean('offline').notNull().default(false),
    /**
     * Insights' raw detail (cleared after RAW_SESSION_RETENTION_DAYS with the served ranges): where the
     * play came from (PLAY_SOURCES; null when the player did not say), whether a toy was connected
     * (null: not said) and, for a tier-locked file, the tier the listener held when it started.
     */
    source: text('source'),
    toyConnected: boolean('toy_connected'),
    supporterTierId: text('supporter_tier_id'),
  },
  (t) => [
    uniqueIndex('listening_sessions_token_idx').on(t.tokenHash),
    // The latest credited end of a user bounds what an overlapping session can still earn.
    index('listening_sessions_user_ended_idx').on(t.userId, t.endedAt),
    // A listener's play of a file counts once per window.
    index('listening_sessions_play_idx').on(t.playListener, t.fileId, t.endedAt),
    // The clean-up finds sessions whose raw insight detail passed the retention window by end.
    index('listening_sessions_raw_detail_idx')
      .on(t.endedAt)
      .where(
        sql`${t.servedRanges} <> '[]'::jsonb or ${t.source} is not null or ${t.toyConnected} is not null or ${t.supporterTierId} is not null`,
      ),
    // The clean-up finds stale sessions by start.
    index('listening_sessions_started_idx').on(t.startedAt),
    // An offline session sent again (a retry after a lost answer) is the same session: credited once.
    uniqueIndex('listening_sessions_offline_idx')
      .on(t.userId, t.fileId, t.startedAt)
      .where(sql`${t.offline}`),
  ],
);

/**
 * Whole copies of a file's audio a user downloaded for offline listening (GET /media/audio/…&offline=1
 * sent every byte). Offline sessions of the file earn credit only after the first such download.
 */
export const offlineCopies = pgTable(
  'offline_copies',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    /** The first whole download; later ones keep it. */
    copiedAt: timestamp('copied_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.fileId] })],
);
