import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function PlaylistsPage() {
  usePageTitle('Playlists');
  return (
    <Card>
      <h1>Playlists</h1>
    </Card>
  );
}
