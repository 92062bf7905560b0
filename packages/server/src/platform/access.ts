import { entitledTierIds } from '@mesmer/shared/domain/locks';
import { hasPermission } from '@mesmer/shared/domain/permissions';
import type { Db } from '../db/client.ts';
import { createAccessRepo, type SessionUser, type Viewer } from './access.repo.ts';
import { Forbidden, Unauthorized } from './errors.ts';
import { hashToken } from './tokens.ts';

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

type ViewerMemberships = Awaited<ReturnType<ReturnType<typeof createAccessRepo>['viewerMemberships']>>;

export function createAccess(db: Db) {
  const repo = createAccessRepo(db);

  return {
    /** The user behind a session token while the session lives. */
    async sessionUser(token: string, now: Date): Promise<SessionUser | null> {
      const found = await repo.sessionUser(hashToken(token), now);
      if (!found) return null;
      membershipsOfSessionUser.set(found.user, found.memberships);
      return found.user;
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
