import styles from '../../library/library.module.css';
import { usePageTitle } from '../../ui/index.ts';
import { PlaylistSection } from './PlaylistSection.tsx';

const STARTER_SCOPE = { official: true, isPublic: true, series: false };
const COMMUNITY_SCOPE = { official: false, isPublic: true, series: false };

/** /playlists: the official starter playlists beside the community's. */
export default function PlaylistsPage() {
  usePageTitle('Playlists');
  return (
    <>
      <div className={styles.pageHeader}>
        <div>
          <h1>Playlists</h1>
          <p className={styles.lead}>Official starter sessions and playlists shared by the community.</p>
        </div>
      </div>
      <div className={styles.columns}>
        <PlaylistSection
          title="Starter Playlists"
          intro="Official playlists to begin with."
          prefix="s"
          scope={STARTER_SCOPE}
        />
        <PlaylistSection
          title="Community Playlists"
          intro="Made and shared by listeners."
          prefix="c"
          scope={COMMUNITY_SCOPE}
        />
      </div>
    </>
  );
}
