import type { AudioFile } from '@mesmer/shared/api/files';
import { ExternalLink, Link2, ListPlus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useCurrentUser } from '../features/auth/api.ts';
import { ConfirmPopup, Modal } from '../ui/index.ts';
import { AddToPlaylist } from './AddToPlaylist.tsx';
import { absoluteUrl, copyLink } from './clipboard.ts';
import { FileDetails } from './FileDetails.tsx';
import styles from './library.module.css';
import { useCensor } from './useCensor.ts';

/**
 * The track popup: the file's details and notices, plus add to playlist (signed-in,
 * not locked), copy link, and remove from playlist when the list belongs to the viewer.
 */
export function TrackPopup({
  file,
  onClose,
  onRemove,
}: {
  file: AudioFile | null;
  onClose: () => void;
  /** Given when the viewer owns the playlist the track is in. */
  onRemove?: () => void;
}) {
  const { user } = useCurrentUser();
  const censor = useCensor();
  const [adding, setAdding] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);

  const close = () => {
    setAdding(false);
    onClose();
  };

  if (!file) return null;
  const triggerNames = file.triggers.map((t) => t.name);
  return (
    <>
      <Modal open title={censor.text(file.name, triggerNames)} onClose={close} width={560}>
        <FileDetails file={file} />
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
          <Link className="btn btn-ghost btn-small" to={`/file/${file.uuid}`}>
            <ExternalLink size={16} aria-hidden /> Open file page
          </Link>
          {onRemove && (
            <button type="button" className="btn btn-ghost btn-small" onClick={() => setConfirmRemove(true)}>
              <Trash2 size={16} aria-hidden /> Remove from playlist
            </button>
          )}
        </div>
        {adding && user && (
          <div className={styles.addPanel}>
            <h3 className={styles.subheading}>Add to playlist</h3>
            <AddToPlaylist fileId={file.id} userId={user.id} />
          </div>
        )}
      </Modal>
      <ConfirmPopup
        open={confirmRemove}
        title="Remove?"
        message={`Remove “${censor.text(file.name, triggerNames)}” from this playlist?`}
        confirmLabel="Remove"
        danger
        onCancel={() => setConfirmRemove(false)}
        onConfirm={() => {
          setConfirmRemove(false);
          onRemove?.();
          close();
        }}
      />
    </>
  );
}
