import { Modal } from '../../ui/index.ts';
import styles from './cue-editor.module.css';
import { EDITOR_SHORTCUTS } from './editor-keys.ts';

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} title="Cue editor shortcuts" onClose={onClose}>
      <dl className={styles.shortcuts}>
        {EDITOR_SHORTCUTS.map((s) => (
          <div key={s.keys} className={styles.shortcut}>
            <dt>
              <kbd>{s.keys}</kbd>
            </dt>
            <dd>{s.label}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}

/** A save answered 409: the creator chooses; nothing is overwritten silently (decision 049). */
export function ConflictDialog({
  message,
  onClose,
  onLoadTheirs,
  onKeepMine,
}: {
  /** The server's explanation; the dialog is open while there is one. */
  message: string | null;
  onClose: () => void;
  onLoadTheirs: () => void;
  onKeepMine: () => void;
}) {
  return (
    <Modal
      open={message !== null}
      title="The cues changed meanwhile"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onLoadTheirs}>
            Load theirs
          </button>
          <button type="button" className="btn btn-primary" onClick={onKeepMine}>
            Keep mine as a new draft
          </button>
        </>
      }
    >
      <p>{message}</p>
      <p>
        Keep yours to go on editing them (saving again replaces the other version), or load the saved cues and
        drop your changes.
      </p>
    </Modal>
  );
}
