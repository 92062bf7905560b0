import { coreSessionsQuery, PAGE_SIZES } from '@mesmer/shared/domain/library-display';
import { useQuery } from '@tanstack/react-query';
import { Sparkles } from 'lucide-react';
import { useState } from 'react';
import { playlistsQuery } from '../../api/playlists.ts';
import { PlaylistList } from '../../library/PlaylistList.tsx';
import { Card, Pagination, SectionHeader } from '../../ui/index.ts';
import styles from './home.module.css';

/** The core playlists, easiest first, 12 per page. */
export function CoreSessionsCard() {
  const [pageOffset, setPageOffset] = useState(0);
  const core = useQuery(playlistsQuery(coreSessionsQuery(pageOffset)));
  return (
    <Card className={styles.core}>
      <SectionHeader
        title={
          <span className={styles.titleWithIcon}>
            <Sparkles size={20} aria-hidden /> Core Sessions
          </span>
        }
      />
      <p className="muted">Start here: guided sessions from beginner to expert.</p>
      {core.isError ? (
        <p className={styles.loadError} role="alert">
          The playlists could not be loaded.{' '}
          <button type="button" className={styles.linkButton} onClick={() => core.refetch()}>
            Try again.
          </button>
        </p>
      ) : (
        <>
          {/* Room for a few rows while loading, so the cards below do not jump when the list comes. */}
          <div className={core.data ? undefined : styles.coreLoading}>
            <PlaylistList label="Core sessions" playlists={core.data?.playlists} />
          </div>
          <Pagination
            pageOffset={pageOffset}
            pageSize={PAGE_SIZES.corePlaylists}
            totalItems={core.data?.totalItems ?? 0}
            onChange={setPageOffset}
          />
        </>
      )}
    </Card>
  );
}
