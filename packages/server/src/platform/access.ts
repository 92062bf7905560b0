import { entitledTierIds } from '@mesmer/shared/domain/locks';
import { hasPermission } from '@mesmer/shared/domain/permissions';
import type { Db } from '../db/client.ts';
import { createAccessRepo, type SessionUser, type Viewer } from './access.repo.ts';
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
 * The memberships read with a request's session user (one statement for both), for that request's
 * viewer. Kept by the user object, which lives as long as its request.
 */
const membershipsOfSessionUser = new WeakMap<SessionUser, ViewerMemberships>();

/** How long a rotated-away token still works: requests the browser sent before it got the new one. */
const ROTATION_GRACE_MS = 60 * 1000;

/** Session users whose session waits for a new token (their roles changed since it was issued). */
const rotationPending = new WeakSet<SessionUser>();

type ViewerMemberships = Awaited<ReturnType<ReturnType<typeof createAccessRepo>['viewerMemberships']>>;

export function createAccess(db: Db) {
  const repo = createAccessRepo(db);

  return {
    /**
     * The user behind a session token while the session lives: until its absolute end, and while it
     * is used at least once every `idleDays` (SESSION_IDLE_DAYS; its last use is written at most hourly).
     */
    async sessionUser(token: string, now: Date, idleDays: number): Promise<SessionUser | null> {
      const tokenHash = hashToken(token);
      const found = await repo.sessionUser(tokenHash, now, new Date(now.getTime() - idleDays * DAY_MS));
      if (!found) return null;
      if (now.getTime() - found.lastSeenAt.getTime() > SESSION_TOUCH_MS)
        await repo.touchSession(tokenHash, now);
      membershipsOfSessionUser.set(found.user, found.memberships);
      if (found.rotatePending) rotationPending.add(found.user);
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
