import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function LeaderboardPage() {
  usePageTitle('Leaderboard');
  return (
    <Card>
      <h1>Leaderboard</h1>
    </Card>
  );
}
