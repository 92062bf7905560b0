import type { AudioFile } from '@mesmer/shared/api/files';
import {
  ATTACHMENT_TOO_LARGE_MESSAGE,
  type AttachmentKind,
  MAX_ATTACHMENT_BYTES,
  type StoredAttachmentKind,
  storedKindOf,
} from '@mesmer/shared/domain/attachments';
import { FileText, Trash2, Upload, Vibrate } from 'lucide-react';
import { type ChangeEvent, useId, useRef, useState } from 'react';
import { FormError, Spinner, toast } from '../../../ui/index.ts';
import { useAttach, useDetach } from './api.ts';
import styles from './edit.module.css';
import { fieldError } from './server-error.ts';

const UPLOADS: { kind: AttachmentKind; label: string; accept: string; done: string }[] = [
  {
    kind: 'haptics',
    label: 'Upload cue file (.json)',
    accept: '.json,application/json',
    done: 'Cue file attached.',
  },
  {
    kind: 'funscript',
    label: 'Upload Funscript (.funscript)',
    accept: '.funscript',
    done: 'Funscript converted and attached.',
  },
  { kind: 'script', label: 'Upload script (.txt)', accept: '.txt,text/plain', done: 'Script attached.' },
];

/**
 * A file's attachments in edit mode: haptics (a cue file, or a Funscript the server converts to
 * cues) and a text script. Each upload or removal takes effect at once; the server's reason for
 * refusing a file is shown under its row.
 */
export function AttachmentsPanel({ file }: { file: AudioFile }) {
  const headingId = useId();
  const attach = useAttach(file.id);
  const detach = useDetach(file.id);
  const [error, setError] = useState<{ row: StoredAttachmentKind; message: string } | null>(null);
  const inputs = useRef<Partial<Record<AttachmentKind, HTMLInputElement | null>>>({});
  const busy = attach.isPending || detach.isPending;
  const hasScript = file.scriptURL !== null;

  const upload = (kind: AttachmentKind) => (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = e.target.files?.[0];
    e.target.value = '';
    if (!chosen) return;
    if (chosen.size > MAX_ATTACHMENT_BYTES) {
      return setError({ row: storedKindOf(kind), message: ATTACHMENT_TOO_LARGE_MESSAGE });
    }
    setError(null);
    attach.mutate(
      { kind, file: chosen },
      {
        onSuccess: () => toast('success', UPLOADS.find((u) => u.kind === kind)?.done ?? 'Attached.'),
        onError: (err) => setError({ row: storedKindOf(kind), message: fieldError(err).reason }),
      },
    );
  };

  const removeKind = (kind: StoredAttachmentKind) => {
    setError(null);
    detach.mutate(kind, {
      onSuccess: () => toast('success', kind === 'script' ? 'Script removed.' : 'Haptics removed.'),
      onError: (err) => setError({ row: kind, message: fieldError(err).reason }),
    });
  };

  const button = (u: (typeof UPLOADS)[number]) => (
    <span key={u.kind}>
      <input
        ref={(el) => {
          inputs.current[u.kind] = el;
        }}
        type="file"
        accept={u.accept}
        className="visually-hidden"
        tabIndex={-1}
        aria-label={u.label}
        onChange={upload(u.kind)}
      />
      <button
        type="button"
        className="btn btn-ghost btn-small"
        disabled={busy}
        onClick={() => inputs.current[u.kind]?.click()}
      >
        <Upload size={14} aria-hidden /> {u.label}
      </button>
    </span>
  );

  return (
    <section className={styles.attachments} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.attachmentsHeading}>
        Attachments {busy && <Spinner size={16} label="Working" />}
      </h2>
      <div className={styles.attachmentRow}>
        <p className={styles.attachmentState}>
          <Vibrate size={16} aria-hidden />{' '}
          {file.hasHaptics ? <strong>Haptics attached</strong> : <span className="muted">No haptics</span>}
        </p>
        <div className={styles.attachmentActions}>
          {UPLOADS.filter((u) => u.kind !== 'script').map(button)}
          {file.hasHaptics && (
            <button
              type="button"
              className="btn btn-ghost btn-small"
              disabled={busy}
              onClick={() => removeKind('haptics')}
            >
              <Trash2 size={14} aria-hidden /> Remove haptics
            </button>
          )}
        </div>
        {error?.row === 'haptics' && <FormError message={error.message} />}
      </div>
      <div className={styles.attachmentRow}>
        <p className={styles.attachmentState}>
          <FileText size={16} aria-hidden />{' '}
          {hasScript ? <strong>Script attached</strong> : <span className="muted">No script</span>}
        </p>
        <div className={styles.attachmentActions}>
          {UPLOADS.filter((u) => u.kind === 'script').map(button)}
          {hasScript && (
            <button
              type="button"
              className="btn btn-ghost btn-small"
              disabled={busy}
              onClick={() => removeKind('script')}
            >
              <Trash2 size={14} aria-hidden /> Remove script
            </button>
          )}
        </div>
        {error?.row === 'script' && <FormError message={error.message} />}
      </div>
    </section>
  );
}
