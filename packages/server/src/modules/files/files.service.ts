import type { AudioFile, ListFilesResponse, listFilesQuery } from '@mesmer/shared/api/files';
import { isFileVisible } from '@mesmer/shared/domain/locks';
import { UUID_PATTERN } from '@mesmer/shared/domain/triggers';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { type Access, requireUser, type SessionUser, type Viewer } from '../../platform/access.ts';
import type { Clock } from '../../platform/clock.ts';
import { NotFound } from '../../platform/errors.ts';
import type { ReadCache } from '../../platform/read-cache.ts';
import type { UrlSigner } from '../../platform/signed-url.ts';
import { toAudioFile } from './files.presenter.ts';
import { createFilesRepo, type FileFilter, type FileRow } from './files.repo.ts';

export type FilesService = ReturnType<typeof createFilesService>;

export function createFilesService({
  db,
  clock,
  readCache,
  access,
  signer,
}: {
  db: Db;
  clock: Clock;
  readCache: ReadCache;
  access: Access;
  /** Signs the media links in file answers. */
  signer: UrlSigner;
}) {
  const repo = createFilesRepo(db, readCache);

  /** Rows in the answer shape, media URLs signed as of now. */
  function presentRows(rows: FileRow[], viewer: Viewer): AudioFile[] {
    const now = clock.now();
    const mediaUrl = (key: string | null, fileId: number) =>
      key ? signer.sign({ urlPath: `/media/${key}`, fileId }, now) : null;
    return rows.map((row) => toAudioFile(row, viewer, mediaUrl));
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
    /** The viewer GET /files computes its answer for (access.listViewer): the user's own for their uploads. */
    listViewer: (user: SessionUser | null, query: z.output<typeof listFilesQuery>) =>
      access.listViewer(user, { list: 'files', personal: Boolean(query.myFiles) }),

    /** `viewer`: from listViewer. */
    async list(
      user: SessionUser | null,
      viewer: Viewer,
      query: z.output<typeof listFilesQuery>,
    ): Promise<ListFilesResponse> {
      if (query.myFiles) requireUser(user);
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
          // The page's toggle wins over the setting, which only decides when the toggle is not sent.
          onlyUnlocked: query.showLocked === undefined ? viewer.hideLockedFiles : !query.showLocked,
          onlyHaptics: !query.showNonHaptics,
        },
        viewer,
        { type: query.sortType, direction: query.sortDirection },
        { limit: query.pageSize, offset: query.pageOffset },
      );
      return { files: presentRows(rows, viewer), totalItems: total };
    },

    /** Public: the authors of public files. */
    listCreators: () => repo.listCreators(),

    /** Whether the viewer may play the file now: visible and not locked (asked again at every media request). */
    async mayPlay(user: SessionUser | null, fileId: number): Promise<boolean> {
      return (await access.files.playable(await access.viewer(user), [fileId])).has(fileId);
    },

    /** The signed audio URL of a file the viewer may play; null when unknown, hidden or locked. */
    async playableAudioUrl(user: SessionUser | null, uuid: string): Promise<string | null> {
      if (!UUID_PATTERN.test(uuid)) return null;
      const file = await findVisible(uuid, await access.viewer(user));
      return file?.audioURL ?? null;
    },

    /** For other modules: the files of `ids` the viewer may see, presented for them, in no order. */
    async visibleByIds(viewer: Viewer, ids: number[]): Promise<AudioFile[]> {
      const rows = await repo.findByIds(ids);
      return presentRows(
        rows.filter((row) => isFileVisible(row, viewer)),
        viewer,
      );
    },

    /** For the generator: a random sample of the files matching `filter` that the viewer may play. */
    async playableSample(
      viewer: Viewer,
      filter: Pick<FileFilter, 'fileTypes' | 'maxDuration' | 'authorId'>,
      limit: number,
    ): Promise<AudioFile[]> {
      const rows = await repo.listAll({ ...filter, onlyUnlocked: true }, viewer, limit);
      return presentRows(rows, viewer);
    },
  };
}
