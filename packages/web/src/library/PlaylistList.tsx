import type { ListPlaylistsResponse, Playlist } from '@mesmer/shared/api/playlists';
import { formatDuration } from '@mesmer/shared/domain/durations';
import { isNewPlaylist } from '@mesmer/shared/domain/file-new';
import { expLevelName } from '@mesmer/shared/domain/library-display';
import type { UseQueryResult } from '@tanstack/react-query';
import { EyeOff, Heart, ListMusic, Lock, Vibrate } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState, ErrorState, LoadingState, Pagination, Tag } from '../ui/index.ts';
import styles from './library.module.css';
import { type Censor, useCensor } from './useCensor.ts';

type PlaylistEntry = Pick<
  Playlist,
  | 'id'
  | 'uuid'
  | 'name'
  | 'expLevel'
  | 'isPublic'
  | 'creator'
  | 'fileCount'
  | 'totalDuration'
  | 'likes'
  | 'hapticsPercent'
  | 'hasPatreonFiles'
  | 'dateCreated'
  | 'triggers'
>;

/**
 * Playlist list entries: a loading indicator while the list is absent, 'No playlists.'
 * (or the caller's text) when empty. An entry goes to /playlist/{uuid} unless the
 * caller handles the choice (it then receives the playlist id).
 */
export function PlaylistList({
  playlists,
  emptyText = 'No playlists.',
  onSelect,
  showNewTag = false,
  label,
}: {
  playlists: readonly PlaylistEntry[] | undefined;
  emptyText?: string;
  onSelect?: (id: number) => void;
  showNewTag?: boolean;
  label: string;
}) {
  const censor = useCensor();
  if (!playlists) return <LoadingState label="Loading playlists" />;
  if (playlists.length === 0) return <EmptyState>{emptyText}</EmptyState>;
  return (
    <ul className={styles.playlistList} aria-label={label}>
      {playlists.map((p) => (
        <li key={p.id}>
          <PlaylistCard playlist={p} censor={censor} onSelect={onSelect} showNewTag={showNewTag} />
        </li>
      ))}
    </ul>
  );
}

/** One page of playlists from GET /api/playlists: the error state, the list, and the pagination under it. */
export function PagedPlaylistList({
  list,
  label,
  emptyText,
  showNewTag,
  pageOffset,
  pageSize,
  onPageChange,
}: {
  list: UseQueryResult<ListPlaylistsResponse>;
  label: string;
  emptyText: string;
  showNewTag?: boolean;
  pageOffset: number;
  pageSize: number;
  onPageChange: (pageOffset: number) => void;
}) {
  if (list.isError) return <ErrorState message="The playlists could not be loaded." onRetry={list.refetch} />;
  return (
    <>
      <PlaylistList
        label={label}
        playlists={list.data?.playlists}
        emptyText={emptyText}
        showNewTag={showNewTag}
      />
      <Pagination
        pageOffset={pageOffset}
        pageSize={pageSize}
        totalItems={list.data?.totalItems ?? 0}
        onChange={onPageChange}
      />
    </>
  );
}

function PlaylistCard({
  playlist,
  censor,
  onSelect,
  showNewTag,
}: {
  playlist: PlaylistEntry;
  censor: Censor;
  onSelect?: (id: number) => void;
  showNewTag?: boolean;
}) {
  const name = censor.text(
    playlist.name,
    playlist.triggers.map((t) => t.name),
  );
  const body = (
    <>
      <span className={styles.cover} data-level={playlist.expLevel} aria-hidden>
        <ListMusic size={22} />
      </span>
      <span className={styles.playlistText}>
        <span className={styles.playlistName}>
          {name}
          {!playlist.isPublic && <EyeOff size={14} aria-label="Private" role="img" />}
          {showNewTag && isNewPlaylist(playlist.dateCreated, Date.now()) && <Tag tone="accent">New!</Tag>}
        </span>
        <span className={styles.playlistMeta}>
          <span>by {playlist.creator.username}</span>
          <span aria-hidden>·</span>
          <span>{expLevelName(playlist.expLevel)}</span>
          <span aria-hidden>·</span>
          <span>
            {playlist.fileCount} {playlist.fileCount === 1 ? 'file' : 'files'}
          </span>
          {playlist.totalDuration > 0 && (
            <>
              <span aria-hidden>·</span>
              <span>{formatDuration(playlist.totalDuration)}</span>
            </>
          )}
        </span>
      </span>
      <span className={styles.playlistBadges}>
        {playlist.hapticsPercent > 0 && <Vibrate size={15} aria-label="Has haptics" role="img" />}
        {playlist.hasPatreonFiles && <Lock size={15} aria-label="Has Patreon files" role="img" />}
        {playlist.likes > 0 && (
          <span className={styles.likes} title="Likes">
            <Heart size={14} aria-hidden /> {playlist.likes}
          </span>
        )}
      </span>
    </>
  );
  if (onSelect) {
    return (
      <button type="button" className={styles.playlistCard} onClick={() => onSelect(playlist.id)}>
        {body}
      </button>
    );
  }
  return (
    <Link className={styles.playlistCard} to={`/playlist/${playlist.uuid}`}>
      {body}
    </Link>
  );
}
