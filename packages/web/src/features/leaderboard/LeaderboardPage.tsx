import { withThousands } from '@mesmer/shared/domain/number-format';
import { offsetOfPage, pageOfOffset } from '@mesmer/shared/domain/pagination';
import { LEADERBOARD_PAGE_SIZE } from '@mesmer/shared/routes/leaderboard';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Crown, UserRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useCurrentUser } from '../../api/auth.ts';
import { leaderboardQuery, myRankingQuery } from '../../api/leaderboard.ts';
import { usePageParam } from '../../lib/usePageParam.ts';
import {
  Card,
  EmptyState,
  ErrorState,
  LoadingState,
  Pagination,
  SectionHeader,
  toast,
  usePageTitle,
} from '../../ui/index.ts';
import styles from './leaderboard.module.css';

const PAGE_SIZE = LEADERBOARD_PAGE_SIZE;

/** /leaderboard: users ranked by points; the page number lives in the URL (?page=). */
export default function LeaderboardPage() {
  usePageTitle('Leaderboard');
  const { user } = useCurrentUser();
  const queryClient = useQueryClient();
  const [pageOffset, goToOffset] = usePageParam('page', PAGE_SIZE);
  const board = useQuery(leaderboardQuery(pageOffset));
  // After "My rank": the user's row may sit further on when a tie spans pages; walk on until it shows.
  const [seekingUser, setSeekingUser] = useState(false);

  const rows = board.data?.leaderboard;
  useEffect(() => {
    if (!seekingUser || !rows || board.isPlaceholderData || !user) return;
    const last = rows.at(-1);
    const found = rows.some((r) => r.username === user.username);
    const tieContinues = last !== undefined && last.points === user.points && rows.length === PAGE_SIZE;
    if (!found && tieContinues) goToOffset(pageOffset + PAGE_SIZE);
    else setSeekingUser(false);
  });

  const showMyRank = async () => {
    try {
      const ranking = await queryClient.fetchQuery({ ...myRankingQuery, staleTime: 0 });
      if (ranking.points === 0) {
        toast('info', 'Not on the leaderboard yet', 'Listen to earn your first points!');
        return;
      }
      setSeekingUser(true);
      goToOffset(offsetOfPage(pageOfOffset(ranking.rank - 1, PAGE_SIZE), PAGE_SIZE));
    } catch {
      toast('error', 'Your rank could not be loaded.');
    }
  };

  return (
    <Card className={styles.card}>
      <SectionHeader
        as="h1"
        title="Leaderboard"
        actions={
          <>
            <button type="button" className="btn btn-ghost btn-small" onClick={() => goToOffset(0)}>
              <Crown size={16} aria-hidden /> Top rank
            </button>
            {user && (
              <button type="button" className="btn btn-primary btn-small" onClick={showMyRank}>
                <UserRound size={16} aria-hidden /> My rank
              </button>
            )}
          </>
        }
      />
      {board.isLoading ? (
        <LoadingState label="Loading the leaderboard" />
      ) : board.isError || !board.data ? (
        <ErrorState message="The leaderboard could not be loaded." onRetry={() => board.refetch()} />
      ) : board.data.leaderboard.length === 0 ? (
        <EmptyState>No data available yet.</EmptyState>
      ) : (
        <>
          <table className={styles.table} aria-busy={board.isFetching}>
            <thead>
              <tr>
                <th scope="col" className={styles.rank}>
                  Rank
                </th>
                <th scope="col">Username</th>
                <th scope="col" className={styles.points}>
                  Points
                </th>
              </tr>
            </thead>
            <tbody>
              {board.data.leaderboard.map((row) => {
                const mine = row.username === user?.username;
                return (
                  <tr
                    key={row.username}
                    className={mine ? styles.mine : undefined}
                    aria-current={mine || undefined}
                  >
                    <td className={styles.rank}>
                      <span
                        className={`${styles.rankBadge} ${row.rank <= 3 ? styles[`medal${row.rank}`] : ''}`}
                      >
                        {row.rank}
                      </span>
                    </td>
                    <td className={styles.username}>
                      <Link to={`/user/${encodeURIComponent(row.username)}`}>{row.username}</Link>
                      {mine && <span className={styles.you}>You</span>}
                    </td>
                    <td className={styles.points}>{withThousands(row.points)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <Pagination
            pageOffset={pageOffset}
            pageSize={PAGE_SIZE}
            totalItems={board.data.totalItems}
            onChange={goToOffset}
          />
        </>
      )}
    </Card>
  );
}
