import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function MusicPage() {
  usePageTitle('Music');
  return (
    <Card>
      <h1>Music</h1>
    </Card>
  );
}
