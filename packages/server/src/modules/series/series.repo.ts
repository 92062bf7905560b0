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
  /**
   * The plan's check, the cap and the upsert in one prepared statement: a progress save is the
   * session and this (it was two statements after the session). No row: no such plan.
   */
  const savePositionOf = db
    .insert(userSeries)
    .select(
      db
        .select({
          userId: sql<number>`${sql.placeholder('userId')}::int`.as('user_id'),
          seriesId: series.id,
          // One past the last day: the plan is complete.
          playlistIndex: sql<number>`least(${sql.placeholder('playlistIndex')}::int,
            (select count(*)::int from ${seriesPlaylists} where ${seriesPlaylists.seriesId} = ${series.id}) + 1)`.as(
            'playlist_index',
          ),
        })
        .from(series)
        .where(eq(series.id, sql.placeholder('seriesId'))),
    )
    .onConflictDoUpdate({
      target: [userSeries.userId, userSeries.seriesId],
      set: { playlistIndex: sql`excluded.playlist_index` },
    })
    .returning({ position: userSeries.playlistIndex })
    .prepare('save_series_position');
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
    /** Saves the position, capped at one past the plan's last day; the stored position, null without the plan. */
    async savePosition(userId: number, seriesId: number, playlistIndex: number): Promise<number | null> {
      const [row] = await savePositionOf.execute({ userId, seriesId, playlistIndex });
      return row?.position ?? null;
    },
  };
}
