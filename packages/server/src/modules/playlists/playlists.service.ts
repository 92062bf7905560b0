import type {
  createPlaylistRequest,
  listPlaylistsQuery,
  Playlist,
  PlaylistUserInfo,
  UpdatePlaylistRequest,
} from '@mesmer/shared/api/playlists';
import { SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import type { z } from 'zod';
import { type Db, withTransaction } from '../../db/client.ts';
import {
  type Access,
  ANONYMOUS,
  isSiteOwner,
  requirePermission,
  requireUser,
  type SessionUser,
  seesPublicFilesOnly,
  type Viewer,
} from '../../platform/access.ts';
import type { Clock } from '../../platform/clock.ts';
import { Forbidden, Invalid, NotFound } from '../../platform/errors.ts';
import type { ReadCache } from '../../platform/read-cache.ts';
import type { FilesService } from '../files/files.service.ts';
import {
  entryFacts,
  storedSummary,
  summariseEntries,
  type TriggersByName,
  toPlaylist,
  toPlaylistUserInfo,
  triggersByNameOf,
} from './playlists.presenter.ts';
import {
  createPlaylistsRepo,
  type ListedPlaylistRow,
  type PlaylistEntry,
  type PlaylistFilter,
  type PlaylistRow,
} from './playlists.repo.ts';

/** How many playlists GET /playlists/recent answers. */
export const RECENT_PLAYLISTS = 12;

type ListQuery = z.output<typeof listPlaylistsQuery>;

function groupByPlaylist<T extends { playlistId: number }>(items: T[]): Map<number, T[]> {
  const byPlaylist = new Map<number, T[]>();
  for (const item of items) {
    const list = byPlaylist.get(item.playlistId);
    if (list) list.push(item);
    else byPlaylist.set(item.playlistId, [item]);
  }
  return byPlaylist;
}

export type PlaylistsService = ReturnType<typeof createPlaylistsService>;

const isPersonal = (query: Pick<ListQuery, 'favorited' | 'liked'>) => Boolean(query.favorited || query.liked);

export function createPlaylistsService({
  db,
  clock,
  readCache,
  access,
  files,
}: {
  db: Db;
  clock: Clock;
  readCache: ReadCache;
  access: Access;
  files: FilesService;
}) {
  const repo = createPlaylistsRepo(db, readCache);

  /**
   * Every trigger by name, kept while the files part is unchanged (readCache.lookups): naming the
   * triggers of a page's stored summaries cost each page a statement, or 0.7 ms of database time
   * as a subquery per row.
   */
  function triggersByName(): Promise<TriggersByName> {
    return readCache.lookups.obtain('playlists: triggers by name', { reads: ['files'] }, async () =>
      triggersByNameOf(await repo.allTriggers()),
    );
  }

  /**
   * `simple` playlists: the totals and file ids, without presenting a file. Who sees the public
   * files only (visibleFilesFor) has the summaries stored with the page's rows; anyone who sees more
   * has theirs summed from the entries.
   */
  async function presentSimple(rows: ListedPlaylistRow[], viewer: Viewer): Promise<Playlist[]> {
    if (await access.files.publicOnly(viewer)) {
      const byName = await triggersByName();
      return rows.map((row) => toPlaylist(row, storedSummary(row, byName), []));
    }
    const shown = await repo.shownEntries(
      rows.map((r) => r.id),
      viewer,
    );
    const allEntries = [...shown.values()].flat();
    const byName = await repo.triggersByIds([...new Set(allEntries.flatMap((e) => e.triggerIds))]);
    return rows.map((row) => {
      const entries = shown.get(row.id) ?? [];
      // A file's triggers by name, as the full playlist lists them.
      const facts = entries.map((entry) => ({
        ...entry,
        triggers: byName.filter((trigger) => entry.triggerIds.includes(trigger.id)),
      }));
      return toPlaylist(row, summariseEntries(facts), []);
    });
  }

  /** The visible files of these entries, grouped by playlist, in order. */
  async function shownFiles(entries: PlaylistEntry[], viewer: Viewer) {
    const visibleFiles = await files.visibleByIds(viewer, [...new Set(entries.map((e) => e.fileId))]);
    const fileById = new Map(visibleFiles.map((f) => [f.id, f]));
    return groupByPlaylist(
      entries.flatMap((entry) => {
        const file = fileById.get(entry.fileId);
        return file ? [{ playlistId: entry.playlistId, file, disabled: entry.disabled }] : [];
      }),
    );
  }

  /** Playlists with their entries' visible files (shownFiles). */
  function presentWith(rows: PlaylistRow[], shown: Awaited<ReturnType<typeof shownFiles>>): Playlist[] {
    return rows.map((row) => {
      const entries = shown.get(row.id) ?? [];
      return toPlaylist(
        row,
        summariseEntries(entries.map((e) => entryFacts(e.file, e.disabled))),
        entries.map((e) => ({ ...e.file, disabled: e.disabled })),
      );
    });
  }

  async function present(rows: PlaylistRow[], viewer: Viewer): Promise<Playlist[]> {
    const entries = await repo.entries(rows.map((r) => r.id));
    return presentWith(rows, await shownFiles(entries, viewer));
  }

  /** The access check of one playlist: its row when the viewer may see it, else 404. */
  async function visiblePlaylist(id: number, viewer: Viewer): Promise<PlaylistRow> {
    // The visibility check and the row read in one statement.
    const [row] = await repo.findVisibleByIds([id], viewer);
    if (!row) throw new NotFound('Playlist not found.');
    return row;
  }

  /** The access check of a change: 404 unknown or hidden, 403 when `user` may not change it (access.ts). */
  async function ownPlaylist(id: number, user: SessionUser, viewer: Viewer): Promise<PlaylistRow> {
    const row = await visiblePlaylist(id, viewer);
    await access.playlists.requireChangeable(user, row);
    return row;
  }

  return {
    /** For other modules: the playlists of `ids` the viewer may see, presented, in the order of `ids`. */
    async visibleByIds(viewer: Viewer, ids: number[]): Promise<Playlist[]> {
      return present(await repo.findVisibleByIds(ids, viewer), viewer);
    },

    /** The viewer GET /playlists computes its answer for (access.listViewer): the user's own for their ratings. */
    listViewer: (user: SessionUser | null, query: Pick<ListQuery, 'favorited' | 'liked'>) =>
      access.listViewer(user, { list: 'playlists', personal: isPersonal(query) }),

    /** Whether the list reads the user's own ratings: then it is theirs alone, and computed each time. */
    isPersonal,

    /**
     * Who shares a list's kept answer (readCache.answer): `simple` playlists of the shared audience
     * are made of stored summaries alone, the same whatever tiers or setting the viewer has, so every
     * visitor shares them; otherwise whoever `viewer` stands for.
     */
    answerViewer: (viewer: Viewer, query: { simple?: boolean }): Viewer =>
      query.simple && seesPublicFilesOnly(viewer) ? ANONYMOUS : viewer,

    /** `viewer`: from listViewer. */
    async list(user: SessionUser | null, viewer: Viewer, query: ListQuery) {
      if (query.favorited || query.liked) requireUser(user);
      const creatorIds = [query.user, query.creator].filter((id): id is number => id !== undefined);
      const filter: PlaylistFilter = {
        ids: query.ids,
        uuid: query.uuid,
        creatorIds: creatorIds.length > 0 ? creatorIds : undefined,
        core: query.core,
        inSeries: query.series,
        officialCreatorId:
          query.official === undefined ? undefined : { id: SITE_OWNER_ID, equal: query.official },
        isPublic: query.isPublic ?? query.public,
        favoritedBy: query.favorited ? user?.id : undefined,
        likedBy: query.liked ? user?.id : undefined,
        searchQuery: query.searchQuery?.trim() || undefined,
        includeFileIds: query.includeFiles,
        expLevels: query.expLevels,
      };
      const { rows, total } = await repo.list(
        filter,
        viewer,
        { key: query.sort, direction: query.sortDir },
        { limit: query.pageSize, offset: query.pageOffset },
      );
      if (query.uuid && rows.length === 0) throw new NotFound('Playlist not found.');
      const playlists = query.simple ? await presentSimple(rows, viewer) : await present(rows, viewer);
      return { playlists, totalItems: total };
    },

    /** The newest public community playlists (not core, not a training-plan day). */
    /** `viewer`: from listViewer. */
    async recent(viewer: Viewer) {
      const { rows } = await repo.list(
        { isPublic: true, core: false, inSeries: false },
        viewer,
        { key: 'datecreated', direction: 'desc' },
        { limit: RECENT_PLAYLISTS, offset: 0 },
      );
      return { playlists: await presentSimple(rows, viewer) };
    },

    async create(user: SessionUser, input: z.output<typeof createPlaylistRequest>) {
      if (input.isCore)
        requirePermission(user, isSiteOwner, 'Only the site owner can create core playlists.');
      // The request's fields are the playlist's own (the contract allows no others).
      return repo.insert({
        ...input,
        isPublic: input.isPublic ?? input.isCore,
        creatorId: user.id,
        dateCreated: clock.now(),
      });
    },

    async update(user: SessionUser, input: UpdatePlaylistRequest): Promise<Playlist> {
      // What is left after the id, the entries and the level (named expLevelId here) are the
      // playlist's own fields, each present only when sent.
      const { id: _id, fileIds: _fileIds, disabledFileIds: _disabled, expLevelId, ...ownFields } = input;
      const viewer = await access.viewer(user);
      // The entries are read beside the access check (and shown only after it passed): an edit's
      // round trips wait behind every other request's under load, so it makes as few as it can.
      const [stored, current] = await Promise.all([
        ownPlaylist(input.id, user, viewer),
        repo.entries([input.id]),
      ]);
      const fields = { ...ownFields, ...(expLevelId !== undefined && { expLevel: expLevelId }) };
      if (input.fileIds === undefined && input.disabledFileIds === undefined) {
        // One statement, without a transaction around it: the playlists generation's row (raised by
        // its trigger) stays locked only for the statement's own commit, not for round trips, so
        // creators' edits do not queue behind each other. The answer's files are read meanwhile.
        const [updated, shown] = await Promise.all([
          repo.updateFields(input.id, fields),
          shownFiles(current, viewer),
        ]);
        return presentWith([{ ...stored, ...updated }], shown)[0];
      }
      const fileIds = input.fileIds ?? current.map((e) => e.fileId);
      if (input.fileIds) {
        const visible = await access.files.visible(viewer, input.fileIds);
        const unknown = [...new Set(input.fileIds.filter((id) => !visible.has(id)))];
        if (unknown.length > 0) throw new Invalid(`fileIds: no such file: ${unknown.join(', ')}.`);
        // Only files unlocked for the editor may be added; ones already in the playlist stay.
        const already = new Set(current.map((e) => e.fileId));
        const added = [...new Set(input.fileIds.filter((id) => !already.has(id)))];
        const locked = (await files.visibleByIds(viewer, added)).filter((file) => file.isLocked);
        if (locked.length > 0) {
          const names = locked.map((file) => `“${file.name}”`).join(', ');
          throw new Forbidden(`fileIds: ${names} ${locked.length === 1 ? 'is' : 'are'} locked for you.`);
        }
      }
      if (input.disabledFileIds) {
        const outside = input.disabledFileIds.filter((id) => !fileIds.includes(id));
        if (outside.length > 0) {
          throw new Invalid(`disabledFileIds: not in the playlist: ${[...new Set(outside)].join(', ')}.`);
        }
      }
      const disabled = new Set(
        input.disabledFileIds ?? current.filter((e: PlaylistEntry) => e.disabled).map((e) => e.fileId),
      );
      const updated = await withTransaction(db, async (tx) => {
        const txRepo = createPlaylistsRepo(tx, readCache);
        const row = await txRepo.updateFields(input.id, fields);
        await txRepo.replaceEntries(
          input.id,
          fileIds.map((fileId) => ({ fileId, disabled: disabled.has(fileId) })),
        );
        return row;
      });
      const [playlist] = await present([{ ...stored, ...updated }], viewer);
      return playlist;
    },

    async delete(user: SessionUser, id: number) {
      await ownPlaylist(id, user, await access.viewer(user));
      await repo.delete(id);
    },

    /** A moderator removing a reported playlist (the moderation service checked who may). */
    async removeReported(id: number) {
      await repo.delete(id);
    },

    async userInfo(user: SessionUser | null, id: number): Promise<PlaylistUserInfo> {
      const row = await visiblePlaylist(id, await access.viewer(user));
      const rating = user
        ? await repo.rating(id, user.id)
        : { liked: false, disliked: false, favorite: false };
      return toPlaylistUserInfo(row, rating);
    },

    /** Like and dislike exclude each other; favourite is independent and open to any signed-in viewer. */
    async rate(
      user: SessionUser,
      input: { id: number; isLiked?: boolean; isDisliked?: boolean; isFavorite?: boolean },
    ): Promise<PlaylistUserInfo> {
      const row = await visiblePlaylist(input.id, await access.viewer(user));
      const rates = input.isLiked !== undefined || input.isDisliked !== undefined;
      if (rates) access.playlists.requireRateable(user, row);
      if (input.isLiked && input.isDisliked) {
        throw new Invalid('isDisliked: a playlist cannot be liked and disliked at once.');
      }
      // The stored rating with this change applied (a field not given keeps its value), then the
      // recount answering the new counters: two statements in the transaction.
      const liked = input.isLiked ?? (input.isDisliked ? false : null);
      const disliked = input.isDisliked ?? (input.isLiked ? false : null);
      const next = await withTransaction(db, async (tx) => {
        const txRepo = createPlaylistsRepo(tx, readCache);
        const rating = await txRepo.applyRating(row.id, user.id, {
          liked,
          disliked,
          favorite: input.isFavorite ?? null,
        });
        const counts = await txRepo.recount(row.id);
        return { rating, row: counts ? { ...row, ...counts } : row };
      });
      return toPlaylistUserInfo(next.row, next.rating);
    },
  };
}
