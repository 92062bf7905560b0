import { entitledTierIds } from '@mesmer/shared/domain/locks';
import { hasPermission } from '@mesmer/shared/domain/permissions';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client.ts';
import { onePerDatabase, sessionGenerationReader } from '../db/library-generation.ts';
import { createAccessRepo, type FoundSession, type SessionUser, type Viewer } from './access.repo.ts';
import { Forbidden, Unauthorized } from './errors.ts';
import { hashToken, newToken } from './tokens.ts';

export type { SessionUser, Viewer } from './access.repo.ts';

/**
 * Who may do and see what, in one place (docs/decisions/016-access-layer.md). Every service
 * method that acts for a user begins here: it resolves the viewer, asks for the allowed ids of
 * a batch, or requires a permission. The visibility SQL that list queries embed lives in
 * access.repo.ts next to the batch checks, so both answer the same question the same way.
 */

/** A permission rule of shared/domain/permissions.ts (hasPermission bound to one, canAddTrigger, ...). */
export type PermissionRule = (user: { roles: readonly string[] }) => boolean;

export const ANONYMOUS: Viewer = {
  id: null,
  readsAllFiles: false,
  entitledTierIds: new Set(),
  hideLockedFiles: false,
};

/** How stale a session's last-seen time may get before a request writes it again. */
const SESSION_TOUCH_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The signed-in user, or 401. */
export function requireUser(user: SessionUser | null): SessionUser {
  if (!user) throw new Unauthorized();
  return user;
}

/** The signed-in user when the rule allows them: 401 anonymous, 403 not allowed. */
export function requirePermission(user: SessionUser | null, rule: PermissionRule): SessionUser {
  const signedIn = requireUser(user);
  if (!rule(signedIn)) throw new Forbidden();
  return signedIn;
}

/**
 * The memberships read with a session user (one statement for both), for the viewer of the
 * requests it serves. Kept by the user object, which lives as long as its request, or as long as
 * it is kept (below): memberships raise the session generation as the user does.
 */
const membershipsOfSessionUser = new WeakMap<SessionUser, FoundSession['memberships']>();

/** How long a rotated-away token still works: requests the browser sent before it got the new one. */
const ROTATION_GRACE_MS = 60 * 1000;

/** Session users whose session waits for a new token (their roles changed since it was issued). */
const rotationPending = new WeakSet<SessionUser>();

/** How many session users a process keeps per database (decision 034): as many signed-in users at once. */
const KEPT_SESSION_USERS = 10_000;

/** A session user kept in the process, with what its session was read at. */
interface KeptSession {
  user: SessionUser;
  memberships: FoundSession['memberships'];
  /** The session generation the lookup read with it: kept while it is current. */
  generation: number;
  expiresAt: Date;
  /** As read, or as this process last touched it: never later than the stored time. */
  lastSeenAt: Date;
}

/**
 * Session users found by the session lookup, by token hash, per database (decision 034): a request
 * whose session is kept costs a shared read of the session generation (migration 0012) instead of
 * the lookup. Every write that can change what the lookup answers raises that generation in its
 * transaction, so a kept user is exactly what the lookup would answer while it is current; whether
 * the session is still live at `now` is judged from its kept end and last-seen time. Entries read at
 * an older generation than the newest seen are useless and dropped at once.
 */
const keptSessionsOf = onePerDatabase(() => ({
  newestGeneration: 0,
  byTokenHash: new LRUCache<string, KeptSession>({ max: KEPT_SESSION_USERS }),
}));

export function createAccess(db: Db) {
  const repo = createAccessRepo(db);
  const kept = keptSessionsOf(db);
  const readSessionGeneration = sessionGenerationReader(db);
  /** Generations only rise: users kept at an older one than `generation` will never be used again. */
  const seeGeneration = (generation: number) => {
    if (generation <= kept.newestGeneration) return;
    kept.newestGeneration = generation;
    kept.byTokenHash.clear();
  };

  return {
    /**
     * The user behind a session token while the session lives: until its absolute end, and while it
     * is used at least once every `idleDays` (SESSION_IDLE_DAYS; its last use is written at most hourly).
     */
    async sessionUser(token: string, now: Date, idleDays: number): Promise<SessionUser | null> {
      const tokenHash = hashToken(token);
      const idleSince = new Date(now.getTime() - idleDays * DAY_MS);
      // The lookup's own rule (live_session_user), for a kept session.
      const live = (s: KeptSession) =>
        s.expiresAt.getTime() > now.getTime() && s.lastSeenAt.getTime() > idleSince.getTime();

      if (kept.byTokenHash.has(tokenHash)) {
        const generation = await readSessionGeneration();
        seeGeneration(generation);
        // Looked up again after the await: a newer generation may have dropped it meanwhile.
        const entry = kept.byTokenHash.get(tokenHash);
        if (entry && entry.generation === generation && live(entry)) {
          if (now.getTime() - entry.lastSeenAt.getTime() > SESSION_TOUCH_MS) {
            await repo.touchSession(tokenHash, now);
            entry.lastSeenAt = now;
          }
          return entry.user;
        }
      }

      const found = await repo.sessionUser(tokenHash, now, idleSince);
      if (!found) {
        kept.byTokenHash.delete(tokenHash);
        return null;
      }
      if (now.getTime() - found.lastSeenAt.getTime() > SESSION_TOUCH_MS) {
        await repo.touchSession(tokenHash, now);
        found.lastSeenAt = now;
      }
      // Requests may share a kept user object: nothing mutates a request's user (req.user, the
      // services' `user` arguments: none assigns to it or its roles), and freezing it makes sure.
      Object.freeze(found.user.roles);
      Object.freeze(found.user);
      membershipsOfSessionUser.set(found.user, found.memberships);
      seeGeneration(found.generation);
      if (found.rotatePending) {
        // Rare (the roles just changed) and rotated by the user object at this request: not kept.
        rotationPending.add(found.user);
        kept.byTokenHash.delete(tokenHash);
      } else if (found.generation === kept.newestGeneration) {
        const { user, memberships, generation, expiresAt, lastSeenAt } = found;
        kept.byTokenHash.set(tokenHash, { user, memberships, generation, expiresAt, lastSeenAt });
      }
      return found.user;
    },

    sessions: {
      /** After a change of roles: each session of the user gets a new token at its next browser request. */
      rotateOnNextRequest: (userId: number) => repo.markForRotation(userId),
      /**
       * The session's new token when its user's roles changed since it was issued (the old token stops
       * working a minute later), else null. For browsers, whose cookie takes the new token without their knowing.
       */
      async rotateIfPending(user: SessionUser, token: string, now: Date): Promise<string | null> {
        if (!rotationPending.has(user)) return null;
        rotationPending.delete(user);
        const fresh = newToken();
        const oldEndsAt = new Date(now.getTime() + ROTATION_GRACE_MS);
        return (await repo.rotate(hashToken(token), hashToken(fresh), now, oldEndsAt)) ? fresh : null;
      },
    },

    /** Who the request is for: permissions, unlocked tiers and the hide-locked setting. */
    async viewer(user: SessionUser | null): Promise<Viewer> {
      if (!user) return ANONYMOUS;
      // A session user's memberships came with it (as of the request's start); others are read.
      const { hideLockedFiles, held, creatorTiers } =
        membershipsOfSessionUser.get(user) ?? (await repo.viewerMemberships(user.id));
      return {
        id: user.id,
        readsAllFiles: hasPermission(user, 'READ_ALL_FILES'),
        entitledTierIds: entitledTierIds(held, creatorTiers),
        hideLockedFiles,
      };
    },

    files: {
      /** The ids of `ids` the viewer may see: public, their own, or all with READ_ALL_FILES. */
      visible: (viewer: Viewer, ids: number[]) => repo.visibleFileIds(ids, viewer),
      /** The ids of `ids` the viewer may see and play: visible and not locked for them. */
      playable: (viewer: Viewer, ids: number[]) => repo.playableFileIds(ids, viewer),
    },

    playlists: {
      /** The ids of `ids` the viewer may see: public, their own, or all with READ_ALL_FILES. */
      visible: (viewer: Viewer, ids: number[]) => repo.visiblePlaylistIds(ids, viewer),
    },

    users: {
      /**
       * The ids among `otherIds` who blocked `userId`: `userId` may not message them, start a thread
       * with them or ask them to be friends. Read from the database at every call, so a block holds at
       * once in every server process.
       */
      blockersOf: (userId: number, otherIds: number[]) => repo.blockersAmong(userId, otherIds),
    },
  };
}
