import type { Playlist } from '@mesmer/shared/api/playlists';
import { addToPlaylistPageSize } from '@mesmer/shared/domain/library-display';
import { useQuery } from '@tanstack/react-query';
import { Check, ListPlus } from 'lucide-react';
import { useState } from 'react';
import { playlistsQuery } from '../../api/playlists.ts';
import styles from '../../library/library.module.css';
import { EmptyState, ErrorState, LoadingState, Pagination, Spinner, toast } from '../../ui/index.ts';
import { useUpdatePlaylist } from './api.ts';

/** The viewer's own playlists; choosing one appends the file to it. */
export function AddToPlaylist({ fileId, userId }: { fileId: number; userId: number }) {
  const [pageSize] = useState(() => addToPlaylistPageSize(window.innerHeight));
  const [pageOffset, setPageOffset] = useState(0);
  const list = useQuery(
    playlistsQuery({
      user: userId,
      sort: 'datecreated',
      sortDir: 'desc',
      simple: true,
      pageSize,
      pageOffset,
    }),
  );
  const update = useUpdatePlaylist();
  const [addingTo, setAddingTo] = useState<number | null>(null);

  const add = (playlist: Playlist) => {
    setAddingTo(playlist.id);
    update.mutate(
      { id: playlist.id, fileIds: [...playlist.fileIds, fileId] },
      {
        onSuccess: () => toast('success', 'Added to playlist!'),
        onError: (err) => toast('error', 'Could not add the file.', err.message),
        onSettled: () => setAddingTo(null),
      },
    );
  };

  if (list.isPending) return <LoadingState label="Loading your playlists" />;
  if (list.isError)
    return <ErrorState message="Your playlists could not be loaded." onRetry={list.refetch} />;
  if (list.data.playlists.length === 0) return <EmptyState>You don't have any playlists yet!</EmptyState>;
  return (
    <div>
      <ul className={styles.pickList} aria-label="Your playlists">
        {list.data.playlists.map((p) => {
          const contains = p.fileIds.includes(fileId);
          return (
            <li key={p.id}>
              <button
                type="button"
                className={styles.pickItem}
                onClick={() => add(p)}
                disabled={addingTo !== null}
              >
                <span className={styles.pickName}>{p.name}</span>
                <span className="muted">
                  {p.fileCount} {p.fileCount === 1 ? 'file' : 'files'}
                </span>
                {addingTo === p.id ? (
                  <Spinner size={18} label="Adding" />
                ) : contains ? (
                  <Check size={18} aria-label="Already in this playlist" />
                ) : (
                  <ListPlus size={18} aria-hidden />
                )}
              </button>
            </li>
          );
        })}
      </ul>
      <Pagination
        pageOffset={pageOffset}
        pageSize={pageSize}
        totalItems={list.data.totalItems}
        onChange={setPageOffset}
      />
    </div>
  );
}
