import type { TierRank } from '@mesmer/shared/domain/locks';
import { and, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Db, withTransaction } from '../db/client.ts';
import {
  authSessions,
  blocks,
  files,
  fileTiers,
  keptGenerations,
  membershipTiers,
  playlists,
  roles,
  userMemberships,
  userRoles,
  users,
} from '../db/schema/index.ts';

/** The signed-in user of a request, with role names. */
export interface SessionUser {
  id: number;
  username: string;
  timezone: string;
  roles: string[];
}

/** Who is looking: decides visibility and locks. */
export interface Viewer {
  id: number | null;
  readsAllFiles: boolean;
  entitledTierIds: ReadonlySet<string>;
  hideLockedFiles: boolean;
}

/** What the viewer's locks depend on: the hide-locked setting and the membership tiers. */
interface ViewerMemberships {
  hideLockedFiles: boolean;
  held: TierRank[];
  creatorTiers: TierRank[];
}

/** What of the library a user owns that changes what they see in lists (access.listViewer). */
export interface LibraryOwnership {
  files: boolean;
  hiddenPlaylists: boolean;
}

/** A live session as the session lookup found it. */
export interface FoundSession {
  user: SessionUser;
  memberships: ViewerMemberships;
  lastSeenAt: Date;
  /** The session's absolute end. */
  expiresAt: Date;
  rotatePending: boolean;
  /** The sessions generation (db/kept-generations.ts) in the lookup's snapshot. */
  generation: number;
}

/**
 * Public files, plus the viewer's own; everything for readers of all files. Repos put it in
 * their list queries, so a list never holds a file the batch checks below would refuse.
 */
export function visibleFilesFor(viewer: Viewer): SQL | undefined {
  if (viewer.readsAllFiles) return undefined;
  if (viewer.id === null) return eq(files.isPublic, true);
  return or(eq(files.isPublic, true), eq(files.uploaderId, viewer.id), eq(files.authorId, viewer.id));
}

/** The SQL twin of isFileLocked (shared/domain/locks.ts), for filtering lists. */
export function unlockedFilesFor(viewer: Viewer): SQL | undefined {
  if (viewer.readsAllFiles) return undefined;
  const conditions: (SQL | undefined)[] = [
    sql`not exists (select 1 from ${fileTiers} where ${fileTiers.fileId} = ${files.id})`,
  ];
  if (viewer.id !== null) conditions.push(eq(files.uploaderId, viewer.id), eq(files.authorId, viewer.id));
  if (viewer.entitledTierIds.size > 0) {
    conditions.push(
      sql`exists (select 1 from ${fileTiers} where ${fileTiers.fileId} = ${files.id} and ${inArray(fileTiers.tierId, [...viewer.entitledTierIds])})`,
    );
  }
  return or(...conditions);
}

/**
 * Whether `blocker` blocked `blocked` (user ids, as SQL): the rule of access.users.blockersOf, for
 * repos that check many pairs in one statement (a batch of messages being sent).
 */
export function hasBlocked(blocker: SQL, blocked: SQL): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${blocks} where ${blocks.blockerId} = ${blocker} and ${blocks.blockedId} = ${blocked})`;
}

/** Public playlists, plus the viewer's own; everything for readers of all files. */
export function visiblePlaylistsFor(viewer: Viewer): SQL | undefined {
  if (viewer.readsAllFiles) return undefined;
  if (viewer.id === null) return eq(playlists.isPublic, true);
  return or(eq(playlists.isPublic, true), eq(playlists.creatorId, viewer.id));
}

/**
 * Who a signed-in viewer is for locks: the setting, the tiers held actively, and every tier of the
 * creators of those tiers. (Columns sit in nested fragments: drizzle writes a single-table select's
 * own columns unqualified.)
 */
const heldTier = alias(membershipTiers, 'held_tier');
const activeHeldTiers = sql`from ${userMemberships} join ${membershipTiers} as ${heldTier}
  on ${heldTier.id} = ${userMemberships.tierId}
  where ${userMemberships.userId} = ${users.id} and ${userMemberships.active}`;
const tiersOfHeldCreators = sql`from ${membershipTiers}
  where ${membershipTiers.creatorName} in (select ${heldTier.creatorName} ${activeHeldTiers})`;
const tierJson = (tier: typeof membershipTiers | typeof heldTier) =>
  sql`json_build_object('id', ${tier.id}, 'creatorName', ${tier.creatorName}, 'rank', ${tier.rank})`;
const viewerColumns = {
  hideLockedFiles: users.hideLockedFiles,
  held: sql<TierRank[]>`coalesce((select json_agg(${tierJson(heldTier)}) ${activeHeldTiers}), '[]'::json)`,
  creatorTiers: sql<
    TierRank[]
  >`coalesce((select json_agg(${tierJson(membershipTiers)}) ${tiersOfHeldCreators}), '[]'::json)`,
};

/**
 * The session lookup (`live_session_user`), unprepared: the user behind a live session token with
 * role names (one row per role) and memberships, and the session generation in the same snapshot.
 * Every table and column it reads must raise the sessions generation when written (db/kept-generations.ts);
 * access-kept-sessions.test.ts reads this statement's text to check that.
 */
export function liveSessionUserQuery(db: Db) {
  return db
    .select({
      id: users.id,
      username: users.username,
      timezone: users.timezone,
      role: roles.name,
      lastSeenAt: authSessions.lastSeenAt,
      expiresAt: authSessions.expiresAt,
      rotatePending: authSessions.rotatePending,
      generation: sql<number>`(select ${keptGenerations.generation} from ${keptGenerations}
        where ${keptGenerations.name} = 'sessions')`.mapWith(Number),
      ...viewerColumns,
    })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(roles, eq(roles.id, userRoles.roleId))
    .where(
      and(
        eq(authSessions.tokenHash, sql.placeholder('tokenHash')),
        gt(authSessions.expiresAt, sql.placeholder('now')),
        gt(authSessions.lastSeenAt, sql.placeholder('idleSince')),
        // A suspended account has no live session, whatever tokens it still holds.
        isNull(users.suspendedAt),
      ),
    );
}

export function createAccessRepo(db: Db) {
  /** Who a signed-in viewer is for locks, in one fixed statement (it runs on every signed-in list). */
  const membershipsOf = db
    .select(viewerColumns)
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('viewer_memberships');

  /**
   * Runs on every signed-in request whose session user is not kept (platform/access.ts): a fixed
   * statement, prepared once per connection. It reads the viewer's memberships too (as
   * membershipsOf), so the request's viewer costs no statement of its own; they repeat on each role row.
   */
  const liveSessionUser = liveSessionUserQuery(db).prepare('live_session_user');

  /** What of the library the user owns that others may not see alike: three index probes. */
  const ownershipOf = db
    .select({
      files: sql<boolean>`exists (select 1 from ${files} where ${files.uploaderId} = ${sql.placeholder('userId')})
        or exists (select 1 from ${files} where ${files.authorId} = ${sql.placeholder('userId')})`,
      hiddenPlaylists: sql<boolean>`exists (select 1 from ${playlists}
        where ${playlists.creatorId} = ${sql.placeholder('userId')} and not ${playlists.isPublic})`,
    })
    .from(sql`(select) as one_row`)
    .prepare('viewer_library_ownership');

  return {
    /**
     * The user behind a live session (not past its end, not idle since `idleSince`), with role
     * names, their memberships (viewerMemberships), when the session was last seen and ends, and
     * the session generation this was read at.
     */
    async sessionUser(tokenHash: string, now: Date, idleSince: Date): Promise<FoundSession | null> {
      const rows = await liveSessionUser.execute({ tokenHash, now, idleSince });
      if (rows.length === 0) return null;
      const { id, username, timezone, hideLockedFiles, held, creatorTiers } = rows[0];
      const { lastSeenAt, expiresAt, rotatePending, generation } = rows[0];
      return {
        user: { id, username, timezone, roles: rows.flatMap((r) => (r.role ? [r.role] : [])) },
        memberships: { hideLockedFiles, held, creatorTiers },
        lastSeenAt,
        expiresAt,
        rotatePending,
        generation,
      };
    },

    /** Marks every session of the user to get a new token at its next cookie request. */
    async markForRotation(userId: number) {
      await db.update(authSessions).set({ rotatePending: true }).where(eq(authSessions.userId, userId));
    },

    /**
     * Continues a session under a new token with the same absolute end; the old token ends at
     * `oldEndsAt` (requests already in flight with it still pass). False when the session is gone.
     */
    async rotate(oldHash: string, newHash: string, now: Date, oldEndsAt: Date): Promise<boolean> {
      return withTransaction(db, async (tx) => {
        const [old] = await tx
          .select()
          .from(authSessions)
          .where(and(eq(authSessions.tokenHash, oldHash), eq(authSessions.rotatePending, true)))
          .for('update');
        if (!old) return false;
        await tx
          .update(authSessions)
          .set({ rotatePending: false, expiresAt: old.expiresAt < oldEndsAt ? old.expiresAt : oldEndsAt })
          .where(eq(authSessions.tokenHash, oldHash));
        await tx.insert(authSessions).values({
          tokenHash: newHash,
          userId: old.userId,
          createdAt: old.createdAt,
          lastSeenAt: now,
          expiresAt: old.expiresAt,
        });
        return true;
      });
    },

    async touchSession(tokenHash: string, now: Date) {
      await db.update(authSessions).set({ lastSeenAt: now }).where(eq(authSessions.tokenHash, tokenHash));
    },

    /** Whether the user uploaded or authored any file, and whether they have a playlist only they see. */
    async ownership(userId: number): Promise<LibraryOwnership> {
      const [row] = await ownershipOf.execute({ userId });
      return row ?? { files: false, hiddenPlaylists: false };
    },

    /** The viewer's hideLockedFiles setting and active membership tiers, with all tiers of those creators. */
    async viewerMemberships(userId: number): Promise<ViewerMemberships> {
      const [row] = await membershipsOf.execute({ userId });
      return row ?? { hideLockedFiles: false, held: [], creatorTiers: [] };
    },

    /** Ids among `ids` of files the viewer may see. */
    async visibleFileIds(ids: number[], viewer: Viewer): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: files.id })
        .from(files)
        .where(and(inArray(files.id, ids), visibleFilesFor(viewer)));
      return new Set(rows.map((r) => r.id));
    },

    /** Ids among `ids` of files the viewer may see and play (not locked for them). */
    async playableFileIds(ids: number[], viewer: Viewer): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: files.id })
        .from(files)
        .where(and(inArray(files.id, ids), visibleFilesFor(viewer), unlockedFilesFor(viewer)));
      return new Set(rows.map((r) => r.id));
    },

    /** Ids among `otherIds` of users who blocked `userId`. */
    async blockersAmong(userId: number, otherIds: number[]): Promise<Set<number>> {
      if (otherIds.length === 0) return new Set();
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(and(inArray(users.id, otherIds), hasBlocked(sql`${users.id}`, sql`${userId}`)));
      return new Set(rows.map((r) => r.id));
    },

    /** Ids among `ids` of playlists the viewer may see. */
    async visiblePlaylistIds(ids: number[], viewer: Viewer): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: playlists.id })
        .from(playlists)
        .where(and(inArray(playlists.id, ids), visiblePlaylistsFor(viewer)));
      return new Set(rows.map((r) => r.id));
    },
  };
}
