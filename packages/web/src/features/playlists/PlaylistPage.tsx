import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function PlaylistPage() {
  usePageTitle('Playlist');
  return (
    <Card>
      <h1>Playlist</h1>
    </Card>
  );
}
