import type { AudioFile } from '@mesmer/shared/api/files';
import { ExternalLink, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmPopup, Modal } from '../ui/index.ts';
import { FileActions } from './FileActions.tsx';
import { FileDetails } from './FileDetails.tsx';
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
  const censor = useCensor();
  const [confirmRemove, setConfirmRemove] = useState(false);

  if (!file) return null;
  const triggerNames = file.triggers.map((t) => t.name);
  return (
    <>
      <Modal open title={censor.text(file.name, triggerNames)} onClose={onClose} width={560}>
        <FileDetails file={file} />
        <FileActions file={file} panelHeading="h3">
          <Link className="btn btn-ghost btn-small" to={`/file/${file.uuid}`}>
            <ExternalLink size={16} aria-hidden /> Open file page
          </Link>
          {onRemove && (
            <button type="button" className="btn btn-ghost btn-small" onClick={() => setConfirmRemove(true)}>
              <Trash2 size={16} aria-hidden /> Remove from playlist
            </button>
          )}
        </FileActions>
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
          onClose();
        }}
      />
    </>
  );
}
