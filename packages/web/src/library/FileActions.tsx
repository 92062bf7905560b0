import type { AudioFile } from '@mesmer/shared/api/files';
import { Link2, ListPlus } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useCurrentUser } from '../api/auth.ts';
import { absoluteUrl, copyLink } from './clipboard.ts';
import { useFeatureSlots } from './feature-slots.tsx';
import styles from './library.module.css';

/**
 * The actions under a file's details: add to playlist (signed in, not locked; opens the
 * playlist picker below), copy link, then whatever further actions the caller passes.
 */
export function FileActions({
  file,
  panelHeading: PanelHeading,
  children,
}: {
  file: AudioFile;
  /** The picker's heading level: one below the heading the file's name is in. */
  panelHeading: 'h2' | 'h3';
  children?: ReactNode;
}) {
  const { AddToPlaylist } = useFeatureSlots();
  const { user } = useCurrentUser();
  const [adding, setAdding] = useState(false);
  return (
    <>
      <div className={styles.popupActions}>
        {user && !file.isLocked && (
          <button
            type="button"
            className="btn btn-ghost btn-small"
            aria-expanded={adding}
            onClick={() => setAdding((a) => !a)}
          >
            <ListPlus size={16} aria-hidden /> Add to playlist
          </button>
        )}
        <button
          type="button"
          className="btn btn-ghost btn-small"
          onClick={() =>
            copyLink(absoluteUrl(`/file/${file.uuid}`), 'The file link was copied to your clipboard.')
          }
        >
          <Link2 size={16} aria-hidden /> Copy link
        </button>
        {children}
      </div>
      {adding && user && (
        <div className={styles.addPanel}>
          <PanelHeading className={styles.subheading}>Add to playlist</PanelHeading>
          <AddToPlaylist fileId={file.id} userId={user.id} />
        </div>
      )}
    </>
  );
}
