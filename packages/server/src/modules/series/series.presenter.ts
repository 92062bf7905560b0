import type { Playlist } from '@mesmer/shared/api/playlists';
import type { Series } from '@mesmer/shared/api/series';
import type { SeriesRow } from './series.repo.ts';

/**
 * Exactly what goes out of a training plan: the viewer's position in it (1 before they start)
 * and its days the viewer may see, when asked for.
 */
export function toSeries(row: SeriesRow, position: number, playlists: Playlist[]): Series {
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    description: row.description,
    creator: { id: row.creatorId, username: row.creatorUsername },
    playlistCount: row.playlistCount,
    position,
    playlists,
  };
}
