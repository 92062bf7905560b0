import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    emailVerified: boolean('email_verified').notNull().default(false),
    imageUrl: text('image_url'),
    biography: text('biography').notNull().default(''),
    points: integer('points').notNull().default(0),
    /** Credited listening below a whole minute, carried to the next session (decision 026). */
    listeningCarryMs: integer('listening_carry_ms').notNull().default(0),
    streak: integer('streak').notNull().default(0),
    /** Local calendar day (in the user's timezone) of the last listening that counted for the streak. */
    lastListenDay: date('last_listen_day'),
    timezone: text('timezone').notNull().default('UTC'),
    /** When `timezone` last changed: it may change once a day (docs/decisions/006). */
    timezoneChangedAt: timestamp('timezone_changed_at', { withTimezone: true }),
    censorTriggers: boolean('censor_triggers').notNull().default(false),
    hideLockedFiles: boolean('hide_locked_files').notNull().default(false),
    /** Not counted in creators' insights (docs/decisions/047); their plays still count as plays. */
    insightsOptOut: boolean('insights_opt_out').notNull().default(false),
    lovenseToken: text('lovense_token'),
    vibrationOffset: integer('vibration_offset').notNull().default(0),
    maxVibration: integer('max_vibration').notNull().default(50),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set by a moderator: a suspended user cannot sign in and has no sessions. */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    // The staff dashboard counts sign-ups per day (insights).
    index('users_created_idx').on(t.createdAt),
    index('users_points_idx').on(t.points.desc(), t.id),
    // The leaderboard's order; username is a key column too so pages are index-only scans.
    index('users_leaderboard_idx')
      .on(t.points.desc(), sql`lower(${t.username}) collate "C"`, t.username)
      .where(sql`${t.points} > 0`),
  ],
);

export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  showBadge: boolean('show_badge').notNull().default(true),
  textColor: text('text_color').notNull().default('#000000'),
  background: text('background').notNull().default('#FC688F'),
});

export const userRoles = pgTable(
  'user_roles',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] })],
);

/** Login sessions: only the SHA-256 of the opaque token is stored. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Absolute end: COOKIE_DAYS after sign-in. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Last request seen (moved at most hourly): a session idle for SESSION_IDLE_DAYS ends. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** The user's roles changed: the browser's next request gets a new token for this session. */
    rotatePending: boolean('rotate_pending').notNull().default(false),
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId)],
);

/** Single-use e-mail tokens (verification, password reset), stored hashed. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify', 'reset'] }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('email_tokens_user_idx').on(t.userId, t.purpose)],
);
