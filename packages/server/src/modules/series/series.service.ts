import type { Series } from '@mesmer/shared/api/series';
import type { Db } from '../../db/client.ts';
import type { Access, SessionUser } from '../../platform/access.ts';
import { NotFound } from '../../platform/errors.ts';
import type { PlaylistsService } from '../playlists/playlists.service.ts';
import { toSeries } from './series.presenter.ts';
import { createSeriesRepo, type SeriesRow } from './series.repo.ts';

export type SeriesService = ReturnType<typeof createSeriesService>;

export function createSeriesService({
  db,
  access,
  playlists,
}: {
  db: Db;
  access: Access;
  playlists: PlaylistsService;
}) {
  const repo = createSeriesRepo(db);

  async function present(
    rows: SeriesRow[],
    user: SessionUser | null,
    includePlaylists: boolean,
  ): Promise<Series[]> {
    const ids = rows.map((r) => r.id);
    const positions = user ? await repo.positions(user.id, ids) : new Map<number, number>();
    const playlistIds = includePlaylists ? await repo.playlistIds(ids) : new Map<number, number[]>();
    const viewer = includePlaylists ? await access.viewer(user) : null;
    return Promise.all(
      rows.map(async (row) =>
        toSeries(
          row,
          positions.get(row.id) ?? 1,
          viewer ? await playlists.visibleByIds(viewer, playlistIds.get(row.id) ?? []) : [],
        ),
      ),
    );
  }

  async function found(by: { id?: number; uuid?: string }): Promise<SeriesRow> {
    const row = await repo.findOne(by);
    if (!row) throw new NotFound('Training plan not found.');
    return row;
  }

  return {
    async list(user: SessionUser | null, includePlaylists: boolean) {
      return present(await repo.list(), user, includePlaylists);
    },
    async findOne(user: SessionUser | null, by: { id?: number; uuid?: string }, includePlaylists: boolean) {
      const [one] = await present([await found(by)], user, includePlaylists);
      return one;
    },
    /** Saves progress, capped at one past the last day (the plan is complete). */
    async savePosition(user: SessionUser, id: number, playlistIndex: number) {
      const position = await repo.savePosition(user.id, id, playlistIndex);
      if (position === null) throw new NotFound('Training plan not found.');
      return { id, position };
    },
  };
}
