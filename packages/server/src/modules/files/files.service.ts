import type { AudioFile, ListFilesResponse, listFilesQuery } from '@mesmer/shared/api/files';
import { entitledTierIds, isFileLocked } from '@mesmer/shared/domain/locks';
import { hasPermission } from '@mesmer/shared/domain/permissions';
import { UUID_PATTERN } from '@mesmer/shared/domain/triggers';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { NotFound, Unauthorized } from '../../platform/errors.ts';
import { mediaUrlSigner } from '../../platform/signed-url.ts';
import type { SessionUser } from '../auth/session.repo.ts';
import { createFilesRepo, type FileRow, type Viewer } from './files.repo.ts';

export type { Viewer } from './files.repo.ts';

export function createFilesService(ctx: AppContext) {
  const repo = createFilesRepo(ctx.db, ctx.readCache.totals);
  const signer = mediaUrlSigner(ctx.config);
  const mediaUrl = (key: string | null, fileId: number, now: Date) =>
    key ? signer.sign({ urlPath: `/media/${key}`, fileId }, now) : null;

  /** Rows in the answer shape. Locks and URLs depend on the viewer; the rest comes from the row. */
  function presentRows(rows: FileRow[], viewer: Viewer): AudioFile[] {
    const now = ctx.clock.now();
    return rows.map((row) => {
      const isLocked = isFileLocked({ ...row, requiredTierIds: row.tiers.map((t) => t.id) }, viewer);
      return {
        id: row.id,
        uuid: row.uuid,
        name: row.name,
        description: row.description,
        triggers: row.triggers,
        patreonTiers: row.tiers,
        fileType: row.fileType,
        tags: row.tags,
        trackNumber: row.trackNumber,
        releaseDate: row.releaseDate.toISOString(),
        isPublic: row.isPublic,
        plays: row.plays,
        duration: row.duration,
        audioURL: isLocked ? null : mediaUrl(row.audioKey, row.id, now),
        audioType: row.audioType,
        scriptURL: isLocked ? null : mediaUrl(row.scriptKey, row.id, now),
        hapticsURL: isLocked ? null : mediaUrl(row.hapticsKey, row.id, now),
        hasHaptics: row.hapticsKey !== null,
        isLocked,
        warnings: row.warnings.map((text) => ({ text })),
        author: {
          id: row.authorId,
          username: row.authorUsername,
          patreonName: row.authorPatreonName,
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

  /** A file by uuid when the viewer may see it. */
  async function findVisible(uuid: string, viewer: Viewer): Promise<AudioFile | null> {
    const { rows } = await repo.list(
      { uuid },
      viewer,
      { type: 'date', direction: 'desc' },
      { limit: 1, offset: 0 },
    );
    const [file] = presentRows(rows, viewer);
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
          usesTrigger: query.trigger ? await repo.triggerLinks(query.trigger, false) : undefined,
          trainsTrigger: query.trainsTrigger ? await repo.triggerLinks(query.trainsTrigger, true) : undefined,
          onlyUnlocked: !query.showLocked || viewer.hideLockedFiles,
          onlyHaptics: !query.showNonHaptics,
        },
        viewer,
        { type: query.sortType, direction: query.sortDirection },
        { limit: query.pageSize, offset: query.pageOffset },
      );
      return { files: presentRows(rows, viewer), totalItems: total };
    },

    listCreators: () => repo.listCreators(),

    /** Whether the viewer may play the file now: visible and not locked (asked again at every media request). */
    async mayPlay(user: SessionUser | null, fileId: number): Promise<boolean> {
      return (await repo.playableIds([fileId], await viewerFor(user))).has(fileId);
    },

    /** The signed audio URL of a file the viewer may play; null when unknown, hidden or locked. */
    async playableAudioUrl(user: SessionUser | null, uuid: string): Promise<string | null> {
      if (!UUID_PATTERN.test(uuid)) return null;
      const file = await findVisible(uuid, await viewerFor(user));
      return file?.audioURL ?? null;
    },
  };
}
export type FilesService = ReturnType<typeof createFilesService>;
