import { canEditFile } from '@mesmer/shared/domain/file-rules';
import { canReadInsightsOf, readsAllInsights } from '@mesmer/shared/domain/insights';
import { entitledTierIds } from '@mesmer/shared/domain/locks';
import { hasPermission, SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import { canLikePlaylist } from '@mesmer/shared/domain/rating';
import type { Db } from '../db/client.ts';
import { createAccessRepo, type LibraryOwnership, type SessionUser, type Viewer } from './access.repo.ts';
import { Forbidden, Unauthorized } from './errors.ts';
import { createFormerMemberRepo } from './former-member.repo.ts';
import type { ReadCache } from './read-cache.ts';
import type { SessionCache } from './session-cache.ts';

export type { SessionUser, Viewer } from './access.repo.ts';

/**
 * Who may do and see what, in one place (docs/decisions/016-access-layer.md). Every service
 * method that acts for a user begins here: it resolves the viewer, asks for the allowed ids of
 * a batch, requires a permission, or requires ownership of a row. The visibility SQL that list
 * queries embed lives in access.repo.ts next to the batch checks, so both answer the same question
 * the same way. Which session a request carries is platform/session-cache.ts.
 */

/** A permission rule of shared/domain/permissions.ts (hasPermission bound to one, canAddTrigger, ...). */
export type PermissionRule = (user: SessionUser) => boolean;

export const ANONYMOUS: Viewer = {
  id: null,
  readsAllFiles: false,
  entitledTierIds: new Set(),
  hideLockedFiles: false,
};

/** The shared audience of library lists: it sees public files only (no own files, not all files). */
export function seesPublicFilesOnly(viewer: Viewer): boolean {
  return viewer.id === null && !viewer.readsAllFiles;
}

/** The signed-in user, or 401. */
export function requireUser(user: SessionUser | null): SessionUser {
  if (!user) throw new Unauthorized();
  return user;
}

/** The signed-in user when the rule allows them: 401 anonymous, 403 (with `refusal`) not allowed. */
export function requirePermission(
  user: SessionUser | null,
  rule: PermissionRule,
  refusal?: string,
): SessionUser {
  const signedIn = requireUser(user);
  if (!rule(signedIn)) throw new Forbidden(refusal);
  return signedIn;
}

/** Only the site owner (user id 1). */
export const isSiteOwner: PermissionRule = (user) => user.id === SITE_OWNER_ID;

export type Access = ReturnType<typeof createAccess>;

export function createAccess({
  db,
  sessions,
  readCache,
}: {
  db: Db;
  sessions: SessionCache;
  /** Keeps what a user owns of the library while files and playlists are unchanged. */
  readCache: Pick<ReadCache, 'lookups'>;
}) {
  const repo = createAccessRepo(db);

  /** What the user owns that changes their lists: uploads, authored files, hidden playlists. */
  function ownershipOf(userId: number): Promise<LibraryOwnership> {
    return readCache.lookups.obtain(`access: ownership ${userId}`, { reads: ['owners'] }, () =>
      repo.ownership(userId),
    );
  }
  const formerMembers = createFormerMemberRepo(db);

  async function viewerOf(user: SessionUser | null): Promise<Viewer> {
    if (!user) return ANONYMOUS;
    // A session user's memberships came with it (as of the request's start); others are read.
    const { hideLockedFiles, held, creatorTiers } =
      sessions.membershipsOf(user) ?? (await repo.viewerMemberships(user.id));
    return {
      id: user.id,
      readsAllFiles: hasPermission(user, 'READ_ALL_FILES'),
      entitledTierIds: entitledTierIds(held, creatorTiers),
      hideLockedFiles,
    };
  }

  return {
    /** Who the request is for: permissions, unlocked tiers and the hide-locked setting. */
    viewer: viewerOf,

    /**
     * The viewer a library list is computed for. A signed-in user who sees the list exactly as an
     * anonymous visitor with their tiers and setting would is that audience (id null): their list
     * is computed, counted and kept as the audience's and shared with everyone in it. Who keeps
     * their own viewer: a reader of all files, a `personal` list (their favourites, their uploads),
     * a user with files of their own (visible or unlocked for them alone) and, in playlist lists,
     * a user with playlists only they see.
     */
    async listViewer(
      user: SessionUser | null,
      { list, personal }: { list: 'files' | 'playlists'; personal: boolean },
    ): Promise<Viewer> {
      const viewer = await viewerOf(user);
      if (viewer.id === null || personal || viewer.readsAllFiles) return viewer;
      const owns = await ownershipOf(viewer.id);
      if (owns.files || (list === 'playlists' && owns.hiddenPlaylists)) return viewer;
      return { ...viewer, id: null };
    },

    files: {
      /**
       * Whether the viewer sees the public files alone: the shared audience, or a signed-in user
       * who neither uploaded nor authored one (a list of their own is theirs for hidden playlists).
       */
      async publicOnly(viewer: Viewer): Promise<boolean> {
        if (seesPublicFilesOnly(viewer)) return true;
        return !viewer.readsAllFiles && viewer.id !== null && !(await ownershipOf(viewer.id)).files;
      },
      /** The ids of `ids` the viewer may see: public, their own, or all with READ_ALL_FILES. */
      visible: (viewer: Viewer, ids: number[]) => repo.visibleFileIds(ids, viewer),
      /** The ids of `ids` the viewer may see and play: visible and not locked for them. */
      playable: (viewer: Viewer, ids: number[]) => repo.playableFileIds(ids, viewer),
      /** 403 unless `editor` uploaded the file or holds WRITE_ALL_FILES. */
      requireEditable(editor: SessionUser, file: { uploaderId: number }): void {
        if (!canEditFile(editor, file))
          throw new Forbidden('Only the uploader or staff may change this file.');
      },
    },

    playlists: {
      /** The ids of `ids` the viewer may see: public, their own, or all with READ_ALL_FILES. */
      visible: (viewer: Viewer, ids: number[]) => repo.visiblePlaylistIds(ids, viewer),
      /**
       * 403 unless `user` created the playlist, or it was handed over at an account's deletion and
       * `user` holds WRITE_ALL_FILES (staff review it, decision 041).
       */
      async requireChangeable(user: SessionUser, playlist: { creatorId: number }): Promise<void> {
        if (playlist.creatorId === user.id) return;
        if (hasPermission(user, 'WRITE_ALL_FILES') && playlist.creatorId === (await formerMembers.find())) {
          return;
        }
        throw new Forbidden('Only the creator of this playlist can change it.');
      },
      /** 403 unless `user` may like or dislike the playlist (shared/domain/rating.ts: not their own, ...). */
      requireRateable(
        user: SessionUser,
        playlist: { creatorId: number; isPublic: boolean; isCore: boolean },
      ): void {
        if (!canLikePlaylist({ ...playlist, creator: { id: playlist.creatorId } }, user.id)) {
          throw new Forbidden('This playlist cannot be rated.');
        }
      },
    },

    insights: {
      /** 403 unless `user` uploaded the files (creatorId) or is staff (shared/domain/insights.ts). */
      requireCreatorInsights(user: SessionUser, creatorId: number, refusal: string): void {
        if (!canReadInsightsOf(user, creatorId)) throw new Forbidden(refusal);
      },
      /** 401 signed out, 403 unless staff: the site dashboard. */
      requireSiteInsights(user: SessionUser | null): SessionUser {
        return requirePermission(user, readsAllInsights, 'Only administrators see the site dashboard.');
      },
    },

    users: {
      /**
       * The ids among `otherIds` who blocked `userId`: `userId` may not message them, start a thread
       * with them or ask them to be friends. Read from the database at every call, so a block holds at
       * once in every server process.
       */
      blockersOf: (userId: number, otherIds: number[]) => repo.blockersAmong(userId, otherIds),
      /** 403 with `refusal` when any of `otherIds` blocked `userId`. */
      async requireNotBlocked(userId: number, otherIds: number[], refusal: string): Promise<void> {
        if ((await repo.blockersAmong(userId, otherIds)).size > 0) throw new Forbidden(refusal);
      },
    },
  };
}
