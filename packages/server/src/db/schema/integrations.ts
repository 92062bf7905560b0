import { boolean, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

const userRef = (name: string) =>
  integer(name)
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A user's linked Patreon account. The OAuth tokens stay on the server (never sent to a browser);
 * `patreon_user_id` maps webhook events back to the user.
 */
export const patreonLinks = pgTable(
  'patreon_links',
  {
    userId: userRef('user_id').primaryKey(),
    patreonUserId: text('patreon_user_id').notNull(),
    /** The Patreon full name (the spec's patreonName). */
    patreonName: text('patreon_name'),
    accessToken: text('access_token').notNull(),
    refreshToken: text('refresh_token').notNull(),
    expiresAt: at('expires_at').notNull(),
    /** When the memberships were last read from Patreon (refreshed after 24 h). */
    lastVerified: at('last_verified').notNull().defaultNow(),
    linkedAt: at('linked_at').notNull().defaultNow(),
  },
  (t) => [index('patreon_links_patreon_user_idx').on(t.patreonUserId)],
);

/**
 * OAuth `state` values handed out for linking: only the SHA-256 is kept, bound to the user and the
 * session that asked; used once, and only for a short while.
 */
export const oauthStates = pgTable('oauth_states', {
  stateHash: text('state_hash').primaryKey(),
  userId: userRef('user_id'),
  sessionHash: text('session_hash').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});

/**
 * The SHA-256 of every signed Patreon webhook body acted on: a body seen before (a replay, or
 * Patreon sending the same body for two events) changes nothing. Only Patreon can add rows.
 */
export const patreonWebhookDeliveries = pgTable('patreon_webhook_deliveries', {
  digest: text('digest').primaryKey(),
  receivedAt: at('received_at').notNull().defaultNow(),
});

/**
 * Where the user's Lovense Remote app answers on the local network, from Lovense's callback
 * (domain such as 192-168-1-44.lovense.club and its ports).
 */
export const lovenseConnections = pgTable('lovense_connections', {
  userId: userRef('user_id').primaryKey(),
  domain: text('domain').notNull(),
  httpsPort: integer('https_port'),
  httpPort: integer('http_port'),
  wsPort: integer('ws_port'),
  wssPort: integer('wss_port'),
  appType: text('app_type'),
  platform: text('platform'),
  appVersion: text('app_version'),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** The toys Lovense's callback last reported for a user (the spec's Toy: id, name, connected). */
export const lovenseToys = pgTable(
  'lovense_toys',
  {
    userId: userRef('user_id'),
    toyId: text('toy_id').notNull(),
    name: text('name').notNull(),
    nickName: text('nick_name'),
    connected: boolean('connected').notNull().default(false),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.toyId] })],
);
