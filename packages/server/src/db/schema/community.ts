import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

const userRef = (name: string) =>
  integer(name)
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Friendships and requests: one row per ordered pair. `accepted_at` null = a request from
 * `user_id` to `friend_id`; accepted = a friendship (either side may end it by deleting the row).
 */
export const friendships = pgTable(
  'friendships',
  {
    userId: userRef('user_id'),
    friendId: userRef('friend_id'),
    createdAt: at('created_at').notNull().defaultNow(),
    acceptedAt: at('accepted_at'),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.friendId] }),
    index('friendships_friend_idx').on(t.friendId),
    check('friendships_not_self', sql`${t.userId} <> ${t.friendId}`),
  ],
);

/** Message threads. `name` null = a two-person thread (shown with the other person's name). */
export const threads = pgTable('threads', {
  id: serial('id').primaryKey(),
  name: text('name'),
  creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
  /** Id of the newest message, 0 when none (the spec's mostRecentMessage). */
  mostRecentMessage: integer('most_recent_message').notNull().default(0),
  createdAt: at('created_at').notNull().defaultNow(),
});

/** Who is in a thread, and the newest message each member has read (the spec's lastRead). */
export const threadMembers = pgTable(
  'thread_members',
  {
    threadId: integer('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    userId: userRef('user_id'),
    lastRead: integer('last_read').notNull().default(0),
    /** Set when the member blocked someone in it: the thread leaves their list. */
    hiddenAt: at('hidden_at'),
  },
  (t) => [primaryKey({ columns: [t.threadId, t.userId] }), index('thread_members_user_idx').on(t.userId)],
);

export const messages = pgTable(
  'messages',
  {
    id: serial('id').primaryKey(),
    threadId: integer('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    /** Null once the sender's account is deleted (shown as from a deleted user). */
    senderId: integer('sender_id').references(() => users.id, { onDelete: 'set null' }),
    message: text('message').notNull(),
    /** Set when a moderator removed it: the text is no longer shown. */
    removedAt: at('removed_at'),
    /** Members who had blocked the sender when it was sent: it is never shown to them (decision 041). */
    withheldFrom: integer('withheld_from').array().notNull().default(sql`'{}'::integer[]`),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('messages_thread_idx').on(t.threadId, t.id),
    // The staff dashboard counts messages per day (insights).
    index('messages_created_idx').on(t.createdAt),
  ],
);

/** `blocker_id` blocked `blocked_id`: no messages, threads or friend requests from blocked to blocker. */
export const blocks = pgTable(
  'blocks',
  {
    blockerId: userRef('blocker_id'),
    blockedId: userRef('blocked_id'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index('blocks_blocked_idx').on(t.blockedId)],
);

/**
 * Reports for the moderation queue. `subject_type` is 'thread' | 'user' | 'file' | 'playlist' | 'message';
 * `subject_id` its id. `resolution` null = open; else 'dismissed' | 'removed' | 'suspended'.
 */
export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    reporterId: integer('reporter_id').references(() => users.id, { onDelete: 'set null' }),
    subjectType: text('subject_type').notNull(),
    subjectId: integer('subject_id').notNull(),
    /** The user reported (the other party of a thread, the author of content), when known. */
    reportedUserId: integer('reported_user_id').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason').notNull().default(''),
    createdAt: at('created_at').notNull().defaultNow(),
    resolution: text('resolution'),
    resolvedBy: integer('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: at('resolved_at'),
  },
  (t) => [index('reports_open_idx').on(t.createdAt).where(sql`${t.resolution} is null`)],
);

/** Every moderation action: who did what to which report/subject, and when. Never updated. */
export const moderationLog = pgTable('moderation_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  moderatorId: integer('moderator_id').references(() => users.id, { onDelete: 'set null' }),
  action: text('action').notNull(),
  reportId: integer('report_id').references(() => reports.id, { onDelete: 'set null' }),
  subjectType: text('subject_type').notNull(),
  subjectId: integer('subject_id').notNull(),
  note: text('note').notNull().default(''),
  createdAt: at('created_at').notNull().defaultNow(),
});
