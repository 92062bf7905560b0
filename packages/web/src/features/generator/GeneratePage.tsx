import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function GeneratePage() {
  usePageTitle('Generate Playlist');
  return (
    <Card>
      <h1>Generate Playlist</h1>
    </Card>
  );
}
