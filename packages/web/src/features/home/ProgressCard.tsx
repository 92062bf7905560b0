import { levelProgress, pointsForLevel } from '@mesmer/shared/domain/levels';
import { withThousands } from '@mesmer/shared/domain/number-format';
import { Trophy } from 'lucide-react';
import { Link } from 'react-router';
import { useCurrentUser } from '../../api/auth.ts';
import { Card, SectionHeader, StreakBadge } from '../../ui/index.ts';
import styles from './progress.module.css';

/** Points and level on the home page, with the way to the next level; signed-in users only. */
export function ProgressCard() {
  const { user } = useCurrentUser();
  if (!user) return null;
  const { level, current, next, fraction } = levelProgress(user.points);
  const levelStart = pointsForLevel(level);
  const percent = Math.floor(fraction * 100);

  return (
    <Card>
      <SectionHeader title="Your progress" actions={<StreakBadge days={user.streak} />} />
      <div className={styles.figures}>
        <div className={styles.figure}>
          <span className={styles.value} data-testid="progress-level">
            {level}
          </span>
          <span className={styles.label}>Level</span>
        </div>
        <div className={styles.figure}>
          <span className={styles.value} data-testid="progress-points">
            {withThousands(current)}
          </span>
          <span className={styles.label}>{current === 1 ? 'Point' : 'Points'}</span>
        </div>
      </div>
      <div
        className={styles.track}
        role="progressbar"
        aria-label={`Progress to level ${level + 1}`}
        aria-valuemin={levelStart}
        aria-valuemax={next}
        aria-valuenow={current}
        aria-valuetext={`${percent}%`}
      >
        <div className={styles.fill} style={{ width: `${fraction * 100}%` }} />
      </div>
      <p className={styles.caption}>
        <span>
          {withThousands(current - levelStart)} / {withThousands(next - levelStart)} points to level{' '}
          {level + 1}
        </span>
        <Link to="/leaderboard" className={styles.leaderboardLink}>
          <Trophy size={14} aria-hidden /> Leaderboard
        </Link>
      </p>
    </Card>
  );
}
