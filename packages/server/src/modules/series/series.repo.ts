import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { series, seriesPlaylists, userSeries, users } from '../../db/schema/index.ts';

export type SeriesRow = {
  id: number;
  uuid: string;
  name: string;
  description: string;
  creatorId: number;
  creatorUsername: string;
  playlistCount: number;
};

export function createSeriesRepo(db: Db) {
  const select = () =>
    db
      .select({
        id: series.id,
        uuid: series.uuid,
        name: series.name,
        description: series.description,
        creatorId: series.creatorId,
        creatorUsername: users.username,
        playlistCount: sql<number>`(select count(*)::int from ${seriesPlaylists} where ${seriesPlaylists.seriesId} = ${series.id})`,
      })
      .from(series)
      .innerJoin(users, eq(users.id, series.creatorId));
  return {
    list: (): Promise<SeriesRow[]> => select().orderBy(asc(series.dateCreated), asc(series.id)),
    async findOne(by: { id?: number; uuid?: string }): Promise<SeriesRow | null> {
      const [row] = await select().where(
        and(
          by.id !== undefined ? eq(series.id, by.id) : undefined,
          by.uuid !== undefined ? eq(series.uuid, by.uuid) : undefined,
        ),
      );
      return row ?? null;
    },
    /** Playlist ids per plan, in day order. */
    async playlistIds(seriesIds: number[]): Promise<Map<number, number[]>> {
      const out = new Map<number, number[]>();
      if (seriesIds.length === 0) return out;
      const rows = await db
        .select({ seriesId: seriesPlaylists.seriesId, playlistId: seriesPlaylists.playlistId })
        .from(seriesPlaylists)
        .where(inArray(seriesPlaylists.seriesId, seriesIds))
        .orderBy(asc(seriesPlaylists.seriesId), asc(seriesPlaylists.position));
      for (const r of rows) out.set(r.seriesId, [...(out.get(r.seriesId) ?? []), r.playlistId]);
      return out;
    },
    async positions(userId: number, seriesIds: number[]): Promise<Map<number, number>> {
      if (seriesIds.length === 0) return new Map();
      const rows = await db
        .select({ seriesId: userSeries.seriesId, playlistIndex: userSeries.playlistIndex })
        .from(userSeries)
        .where(and(eq(userSeries.userId, userId), inArray(userSeries.seriesId, seriesIds)));
      return new Map(rows.map((r) => [r.seriesId, r.playlistIndex]));
    },
    async savePosition(userId: number, seriesId: number, playlistIndex: number) {
      await db
        .insert(userSeries)
        .values({ userId, seriesId, playlistIndex })
        .onConflictDoUpdate({ target: [userSeries.userId, userSeries.seriesId], set: { playlistIndex } });
    },
  };
}
