import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { files } from './library.ts';

/**
 * Audio listening sessions (POST /api/session). Only the SHA-256 of the token is stored.
 * A session ends once; `points` is what its end awarded.
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
  },
  (t) => [
    uniqueIndex('listening_sessions_token_idx').on(t.tokenHash),
    // The latest credited end of a user bounds what an overlapping session can still earn.
    index('listening_sessions_user_ended_idx').on(t.userId, t.endedAt),
  ],
);
