import type { AudioFile, ListFilesResponse, listFilesQuery } from '@mesmer/shared/api/files';
import { entitledTierIds, isFileLocked } from '@mesmer/shared/domain/locks';
import { hasPermission } from '@mesmer/shared/domain/permissions';
import { UUID_PATTERN } from '@mesmer/shared/domain/triggers';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { NotFound, Unauthorized } from '../../platform/errors.ts';
import { mediaUrlSigner } from '../../platform/signed-url.ts';
import type { SessionUser } from '../auth/session.repo.ts';
import { createFilesRepo, type FileDetails, type FileRow, type Viewer } from './files.repo.ts';

export type { Viewer } from './files.repo.ts';

export function createFilesService(ctx: AppContext) {
  const repo = createFilesRepo(ctx.db);
  const signer = mediaUrlSigner(ctx.config);
  const mediaUrl = (key: string | null, now: Date) => (key ? signer.sign(`/media/${key}`, now) : null);

  /** Locks and URLs depend on the viewer; every other field comes straight from the row. */
  function present(rows: FileRow[], details: FileDetails, viewer: Viewer): AudioFile[] {
    const now = ctx.clock.now();
    return rows.map((row) => {
      const tiers = details.tiers.get(row.id) ?? [];
      const isLocked = isFileLocked({ ...row, requiredTierIds: tiers.map((t) => t.id) }, viewer);
      return {
        id: row.id,
        uuid: row.uuid,
        name: row.name,
        description: row.description,
        triggers: details.triggers.get(row.id) ?? [],
        patreonTiers: tiers,
        fileType: row.fileType,
        tags: details.tags.get(row.id) ?? [],
        trackNumber: row.trackNumber,
        releaseDate: row.releaseDate.toISOString(),
        isPublic: row.isPublic,
        plays: row.plays,
        duration: row.duration,
        audioURL: isLocked ? null : mediaUrl(row.audioKey, now),
        audioType: row.audioType,
        scriptURL: isLocked ? null : mediaUrl(row.scriptKey, now),
        hapticsURL: isLocked ? null : mediaUrl(row.hapticsKey, now),
        hasHaptics: row.hapticsKey !== null,
        isLocked,
        warnings: row.warnings.map((text) => ({ text })),
        author: {
          id: row.authorId,
          username: row.authorUsername,
          patreonName: details.patreonNames.get(row.authorId) ?? null,
        },
        uploaderId: row.uploaderId,
        userUploaded: row.userUploaded,
      };
    });
  }

  /** Who the request is for: permissions, unlocked tiers and the hide-locked setting. */
  async function viewerFor(user: SessionUser | null): Promise<Viewer> {
    if (!user) return { id: null, readsAllFiles: false, entitledTierIds: new Set(), hideLockedFiles: false };
    const { hideLockedFiles, held, creatorTiers } = await repo.viewerMemberships(user.id);
    return {
      id: user.id,
      readsAllFiles: hasPermission(user, 'READ_ALL_FILES'),
      entitledTierIds: entitledTierIds(held, creatorTiers),
      hideLockedFiles,
    };
  }

  /** Rows in the answer shape, in the given order. */
  async function presentRows(rows: FileRow[], viewer: Viewer): Promise<AudioFile[]> {
    return present(rows, await repo.details(rows), viewer);
  }

  async function findVisible(uuid: string, viewer: Viewer): Promise<AudioFile | null> {
    const { rows } = await repo.list(
      { uuid },
      viewer,
      { type: 'date', direction: 'desc' },
      { limit: 1, offset: 0 },
    );
    const [file] = await presentRows(rows, viewer);
    return file ?? null;
  }

  return {
    repo,

    viewerFor,
    presentRows,

    async list(user: SessionUser | null, query: z.output<typeof listFilesQuery>): Promise<ListFilesResponse> {
      if (query.myFiles && !user) throw new Unauthorized();
      const viewer = await viewerFor(user);
      if (query.uuid) {
        const file = await findVisible(query.uuid, viewer);
        if (!file) throw new NotFound('File not found.');
        return { files: [file], totalItems: 1 };
      }
      const searchText = query.searchQuery?.trim();
      const { rows, total } = await repo.list(
        {
          search: searchText ? await repo.searchTargets(searchText) : undefined,
          nameQuery: query.nameQuery?.trim() || undefined,
          minDuration: query.minDuration,
          maxDuration: query.maxDuration,
          fileTypes: query.fileTypes,
          creatorIds: query.creatorIds,
          uploaderId: query.myFiles ? user?.id : undefined,
          usesTriggerId: query.trigger,
          trainsTriggerId: query.trainsTrigger,
          onlyUnlocked: !query.showLocked || viewer.hideLockedFiles,
          onlyHaptics: !query.showNonHaptics,
        },
        viewer,
        { type: query.sortType, direction: query.sortDirection },
        { limit: query.pageSize, offset: query.pageOffset },
      );
      return { files: await presentRows(rows, viewer), totalItems: total };
    },

    listCreators: () => repo.listCreators(),

    /** The signed audio URL of a file the viewer may play; null when unknown, hidden or locked. */
    async playableAudioUrl(user: SessionUser | null, uuid: string): Promise<string | null> {
      if (!UUID_PATTERN.test(uuid)) return null;
      const file = await findVisible(uuid, await viewerFor(user));
      return file?.audioURL ?? null;
    },
  };
}
export type FilesService = ReturnType<typeof createFilesService>;
