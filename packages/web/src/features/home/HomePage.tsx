import { coreSessionsQuery } from '@mesmer/shared/domain/library-display';
import { useCurrentUser } from '../../api/auth.ts';
import { playlistsQuery } from '../../api/playlists.ts';
import { PATREON_LINKING, SITE_NAME } from '../../lib/site.ts';
import { usePageTitle } from '../../ui/index.ts';
import { CoreSessionsCard } from './CoreSessionsCard.tsx';
import styles from './home.module.css';
import { MessagesBannerSlot } from './MessagesBannerSlot.tsx';
import { MyPlaylistsCard } from './MyPlaylistsCard.tsx';
import { ProgressCard } from './ProgressCard.tsx';
import { RelinkNotice } from './RelinkNotice.tsx';
import { WelcomeCard } from './WelcomeCard.tsx';

/** What the page shows first: fetched with its module, before the app's first render (app/routes.tsx). */
export const firstQueries = () => [playlistsQuery(coreSessionsQuery(0))];

/** Home: core sessions beside the visitor's own corner (notices, progress, welcome, my playlists). */
export default function HomePage() {
  usePageTitle('Home');
  const { user, isVisitor } = useCurrentUser();
  return (
    <div className={styles.home}>
      {/* The page's name for screen readers and search engines; the cards carry the visible headings. */}
      <h1 className="visually-hidden">{SITE_NAME}</h1>
      <div className={styles.side}>
        {user && PATREON_LINKING && <RelinkNotice />}
        <ProgressCard />
        <MessagesBannerSlot />
        {isVisitor && <WelcomeCard />}
      </div>
      <div className={styles.coreArea}>
        <CoreSessionsCard />
      </div>
      <div className={styles.mine}>
        <MyPlaylistsCard />
      </div>
    </div>
  );
}
