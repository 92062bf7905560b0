import type { AudioFile } from '@mesmer/shared/api/files';
import { canEditFile } from '@mesmer/shared/domain/file-rules';
import { useQuery } from '@tanstack/react-query';
import { ExternalLink, Pencil, Trash2 } from 'lucide-react';
import { type ReactNode, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useCurrentUser } from '../api/auth.ts';
import { fileByUuidQuery } from '../api/files.ts';
import { ConfirmPopup, ErrorState, Modal, Spinner } from '../ui/index.ts';
import { FileActions } from './FileActions.tsx';
import { FileDetails } from './FileDetails.tsx';
import { type FileEditorHandle, useFeatureSlots } from './feature-slots.tsx';
import { useCensor } from './useCensor.ts';

/**
 * The track popup: the file's details and notices, plus add to playlist (signed-in,
 * not locked), copy link, and remove from playlist when the list belongs to the viewer.
 * The file's uploader and WRITE_ALL_FILES holders switch it to the file page's edit mode.
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
  if (!file) return null;
  return <TrackPopupBody key={file.id} listed={file} onClose={onClose} onRemove={onRemove} />;
}

function TrackPopupBody({
  listed,
  onClose,
  onRemove,
}: {
  /** The file as the list has it. */
  listed: AudioFile;
  onClose: () => void;
  onRemove?: () => void;
}) {
  const { FileEditor } = useFeatureSlots();
  const censor = useCensor();
  const { user } = useCurrentUser();
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [editing, setEditing] = useState(false);
  const [deleted, setDeleted] = useState(false);
  const editorHandle = useRef<FileEditorHandle>(null);
  // Once edited here, the file as the server has it: edits start from it and show after Save.
  const [edited, setEdited] = useState(false);
  const fresh = useQuery({ ...fileByUuidQuery(listed.uuid), enabled: edited && !deleted });
  const file = (edited && fresh.data) || listed;

  const editor = user ? { id: user.id, roles: user.roles.map((r) => r.name) } : null;
  const mayEdit = canEditFile(editor, file);
  const triggerNames = file.triggers.map((t) => t.name);
  const title = censor.text(file.name, triggerNames);
  // Closing the popup while editing asks first when there are unsaved changes.
  const close = () => (editing && editorHandle.current ? editorHandle.current.leave(onClose) : onClose());

  let body: ReactNode;
  if (editing && editor) {
    body = fresh.isPending ? (
      <Spinner size={20} label="Loading file" />
    ) : fresh.isError || !fresh.data ? (
      <ErrorState message="The file could not be loaded." onRetry={fresh.refetch} />
    ) : (
      <FileEditor
        file={fresh.data}
        editor={editor}
        handle={editorHandle}
        onClose={() => setEditing(false)}
        onDeleted={() => {
          setDeleted(true);
          onClose();
        }}
      />
    );
  } else {
    body = (
      <>
        <FileDetails file={file} />
        <FileActions file={file} panelHeading="h3">
          {mayEdit && (
            <button
              type="button"
              className="btn btn-ghost btn-small"
              onClick={() => {
                setEdited(true);
                setEditing(true);
              }}
            >
              <Pencil size={16} aria-hidden /> Edit
            </button>
          )}
          <Link className="btn btn-ghost btn-small" to={`/file/${file.uuid}`}>
            <ExternalLink size={16} aria-hidden /> Open file page
          </Link>
          {onRemove && (
            <button type="button" className="btn btn-ghost btn-small" onClick={() => setConfirmRemove(true)}>
              <Trash2 size={16} aria-hidden /> Remove from playlist
            </button>
          )}
        </FileActions>
      </>
    );
  }

  return (
    <>
      <Modal open title={title} onClose={close} width={editing ? 640 : 560}>
        {body}
      </Modal>
      <ConfirmPopup
        open={confirmRemove}
        title="Remove?"
        message={`Remove “${title}” from this playlist?`}
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
