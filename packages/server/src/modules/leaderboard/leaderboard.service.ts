import type {
  LeaderboardResponse,
  LeaderboardRow,
  LeaderboardUserResponse,
} from '@mesmer/shared/api/leaderboard';
import type { Db } from '../../db/client.ts';
import { requireUser, type SessionUser } from '../../platform/access.ts';
import { NotFound, Unauthorized } from '../../platform/errors.ts';
import { createLeaderboardRepo, type PointsRow } from './leaderboard.repo.ts';

/**
 * Competition ranks ("1, 2, 2, 4") for a page of rows sorted by points, given where the
 * page starts and how many users have more points than its first row. A row tied with
 * the first row shares its rank (the tie may begin on an earlier page); any other row's
 * rank is the position of the first row with its points, plus one.
 */
export function rankPage(rows: readonly PointsRow[], offset: number, aboveFirst: number): LeaderboardRow[] {
  let tieStart = 0;
  return rows.map((row, i) => {
    if (i > 0 && row.points !== rows[i - 1].points) tieStart = i;
    const rank = row.points === rows[0].points ? aboveFirst + 1 : offset + tieStart + 1;
    return { rank, username: row.username, points: row.points };
  });
}

export type LeaderboardService = ReturnType<typeof createLeaderboardService>;

export function createLeaderboardService({ db }: { db: Db }) {
  const repo = createLeaderboardRepo(db);

  async function ranking(row: PointsRow): Promise<LeaderboardUserResponse> {
    return { ranking: { rank: (await repo.countAbove(row.points)) + 1, ...row } };
  }

  return {
    async page(query: { pageSize: number; pageOffset: number }): Promise<LeaderboardResponse> {
      const [rows, totalItems] = await Promise.all([
        repo.page(query.pageSize, query.pageOffset),
        repo.countRanked(),
      ]);
      const aboveFirst = rows.length > 0 ? await repo.countAbove(rows[0].points) : 0;
      return { leaderboard: rankPage(rows, query.pageOffset, aboveFirst), totalItems };
    },

    /** A named user's rank, or the signed-in user's. Users without points rank after everyone ranked. */
    async userRanking(
      viewer: SessionUser | null,
      username: string | undefined,
    ): Promise<LeaderboardUserResponse> {
      if (username !== undefined) {
        const row = await repo.findByUsername(username);
        if (!row) throw new NotFound('User not found.');
        return ranking(row);
      }
      const row = await repo.findById(requireUser(viewer).id);
      if (!row) throw new Unauthorized();
      return ranking(row);
    },
  };
}
