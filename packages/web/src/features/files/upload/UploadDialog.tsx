/**
 * The upload dialog (spec: Upload): a drop zone and file picker, the byte progress bar,
 * 'Processing' after the last chunk, and the form that makes the finished upload into a file.
 * The form is filled in while the file goes up; it is sent once the upload is complete. The
 * dialog starts afresh every time it opens (its content unmounts when closed, which also stops
 * an upload still going: it can be resumed by picking the same file again).
 */
import { FILE_TYPES } from '@mesmer/shared/domain/file-types';
import { MAX_UPLOAD_BYTES, UPLOAD_FORMATS } from '@mesmer/shared/domain/upload-limits';
import { useQuery } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import { type DragEvent, type FormEvent, useEffect, useId, useReducer, useRef, useState } from 'react';
import { uploadOptionsQuery } from '../../../api/files.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { ErrorState, Field, FormError, Modal, Spinner, SubmitButton, toast } from '../../../ui/index.ts';
import { errorProps, FileFields } from '../fields/FileFields.tsx';
import {
  createFileBody,
  EMPTY_DRAFT,
  fileFormReducer,
  uploadErrors,
  withoutExtension,
} from '../fields/file-draft.ts';
import { useCreateFile } from './api.ts';
import styles from './upload.module.css';
import { CHUNK_FAILED_MESSAGE, isAbort, UploadError, uploadFile } from './upload-client.ts';

export const ONE_FILE_MESSAGE = 'Only one file can be uploaded at a time.';
export const TOO_LARGE_MESSAGE = `The max file size is ${MAX_UPLOAD_BYTES / 1_000_000} MB.`;
export const FORMAT_MESSAGE = 'Only mp3, m4a, wav and flac files can be uploaded.';
export const FORM_SERVER_ERROR = 'An error occurred. Please close this popup and try uploading again.';
const FIELDS_MESSAGE = 'Please fill out all highlighted fields.';
const ACCEPT = UPLOAD_FORMATS.map((f) => `.${f}`).join(',');

/** How the dialog starts: empty, resuming an upload (the user picks its file again) or finishing a ready one. */
export type UploadStart =
  | { kind: 'new' }
  | { kind: 'resume'; uuid: string; fileName: string }
  | { kind: 'finish'; uuid: string; fileName: string };

export function UploadDialog({
  open,
  onClose,
  start = { kind: 'new' },
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  start?: UploadStart;
  /** After the file is made (the playlist editor appends it to its playlist). */
  onCreated?: (fileId: number) => Promise<unknown> | undefined;
}) {
  return (
    <Modal open={open} title="Upload a file" onClose={onClose} width={600}>
      <UploadFlow start={start} onDone={onClose} onCreated={onCreated} />
    </Modal>
  );
}

type Phase =
  | { step: 'pick' }
  | { step: 'uploading'; sent: number; total: number }
  | { step: 'processing' }
  | { step: 'ready'; uuid: string }
  | { step: 'failed'; message: string };

const extensionOf = (name: string) => name.split('.').pop()?.toLowerCase() ?? '';

export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  if (bytes >= 1_000) return `${Math.round(bytes / 1_000)} kB`;
  return `${bytes} B`;
}

/** What is wrong with the picked files for an upload, or null. */
export function pickProblem(files: readonly File[]): string | null {
  if (files.length !== 1) return ONE_FILE_MESSAGE;
  if (files[0].size > MAX_UPLOAD_BYTES) return TOO_LARGE_MESSAGE;
  if (!(UPLOAD_FORMATS as readonly string[]).includes(extensionOf(files[0].name))) return FORMAT_MESSAGE;
  return null;
}

function UploadFlow({
  start,
  onDone,
  onCreated,
}: {
  start: UploadStart;
  onDone: () => void;
  onCreated?: (fileId: number) => Promise<unknown> | undefined;
}) {
  const inputId = useId();
  const options = useQuery(uploadOptionsQuery);
  const create = useCreateFile();
  const [phase, setPhase] = useState<Phase>(
    start.kind === 'finish' ? { step: 'ready', uuid: start.uuid } : { step: 'pick' },
  );
  const [file, setFile] = useState<File | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [form, dispatch] = useReducer(fileFormReducer, {
    draft: { ...EMPTY_DRAFT, name: start.kind === 'new' ? '' : withoutExtension(start.fileName) },
    errors: {},
  });
  const { draft } = form;
  const [serverError, setServerError] = useState<string | null>(null);
  const [finishing, setFinishing] = useState(false);
  const abort = useRef<AbortController | null>(null);
  // Each chunk says whether the file is paid, as the form stands when that chunk goes.
  const paidRef = useRef(false);
  paidRef.current = draft.paidExclusive && draft.tier !== '';

  // Closing the dialog stops the upload; it can be resumed later.
  useEffect(() => () => abort.current?.abort(), []);

  const send = (picked: File) => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ step: 'uploading', sent: 0, total: picked.size });
    uploadFile({
      file: picked,
      secure: () => paidRef.current,
      signal: controller.signal,
      resumeUuid: start.kind === 'resume' ? start.uuid : undefined,
      onProgress: (sent, total) => {
        if (!controller.signal.aborted) setPhase({ step: 'uploading', sent, total });
      },
      onProcessing: () => {
        if (!controller.signal.aborted) setPhase({ step: 'processing' });
      },
    }).then(
      (uuid) => {
        if (!controller.signal.aborted) setPhase({ step: 'ready', uuid });
      },
      (err) => {
        if (isAbort(err) || controller.signal.aborted) return;
        const message =
          err instanceof UploadError || err instanceof ApiError ? err.message : CHUNK_FAILED_MESSAGE;
        setPhase({ step: 'failed', message });
      },
    );
  };

  const pick = (files: readonly File[]) => {
    const problem = pickProblem(files);
    setPickError(problem);
    if (problem) return;
    const picked = files[0];
    setFile(picked);
    dispatch({ type: 'audioPicked', fileName: picked.name });
    send(picked);
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    pick([...e.dataTransfer.files]);
  };

  const opts = options.data;
  const tiers = opts?.tiers ?? [];
  const canSetTrackNumber = opts?.canSetTrackNumber ?? false;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const errors = uploadErrors(draft, { tiersOffered: tiers.length > 0, canSetTrackNumber });
    dispatch({ type: 'invalid', errors });
    setServerError(null);
    if (Object.keys(errors).length > 0 || phase.step !== 'ready') return;
    create.mutate(createFileBody(draft, phase.uuid, canSetTrackNumber), {
      onSuccess: async (id) => {
        setFinishing(true);
        toast('success', 'File uploaded!');
        try {
          await onCreated?.(id);
        } finally {
          onDone();
        }
      },
      // Spec: a file creation error shows the response's error; anything else the form's server error.
      onError: (err) =>
        setServerError(err instanceof ApiError && err.status < 500 ? err.message : FORM_SERVER_ERROR),
    });
  };

  const percent =
    phase.step === 'uploading' && phase.total > 0 ? Math.floor((phase.sent / phase.total) * 100) : 0;

  return (
    <div>
      {start.kind === 'resume' && phase.step === 'pick' && (
        <p className={styles.note}>Choose “{start.fileName}” again to resume its upload where it stopped.</p>
      )}

      {phase.step === 'pick' && (
        // biome-ignore lint/a11y/noStaticElementInteractions: dropping is for pointers; the button below picks by keyboard
        <div
          className={dragging ? `${styles.drop} ${styles.dropActive}` : styles.drop}
          data-testid="upload-drop-zone"
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <Upload size={28} aria-hidden />
          <p>Drop an audio file here (mp3, m4a, wav or flac, up to 350 MB), or</p>
          <input
            id={inputId}
            type="file"
            accept={ACCEPT}
            className="visually-hidden"
            aria-label="Audio file"
            onChange={(e) => {
              pick([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
          {/* The input keeps the keyboard focus; this label is what shows it and takes clicks. */}
          <label htmlFor={inputId} className={`btn btn-primary btn-small ${styles.pick}`}>
            Choose a file
          </label>
        </div>
      )}
      <FormError message={pickError} />

      {file && phase.step !== 'pick' && <p className={styles.fileName}>{file.name}</p>}
      {phase.step === 'uploading' && (
        <div className={styles.progress}>
          <progress
            value={phase.sent}
            max={phase.total}
            aria-label="Upload progress"
            aria-valuetext={`${percent}%`}
          />
          <div className={styles.progressText} aria-live="polite">
            <span>
              {formatBytes(phase.sent)} of {formatBytes(phase.total)}
            </span>
            <span>{percent}%</span>
          </div>
        </div>
      )}
      {phase.step === 'processing' && (
        <p className={styles.status} aria-live="polite">
          <Spinner size={18} label="Processing" />
          <span aria-hidden>Processing</span>
        </p>
      )}
      {phase.step === 'ready' && (
        <p className={styles.status} role="status">
          Upload complete. Fill in the details and save the file.
        </p>
      )}
      {phase.step === 'failed' && (
        <div className={styles.status}>
          <FormError message={phase.message} />
          {file && (
            <button type="button" className="btn btn-ghost btn-small" onClick={() => send(file)}>
              Try again
            </button>
          )}
        </div>
      )}

      {phase.step !== 'pick' &&
        (options.isPending ? (
          <Spinner size={20} label="Loading the form" />
        ) : options.isError ? (
          <ErrorState message="The upload form could not be loaded." onRetry={options.refetch} />
        ) : (
          <form onSubmit={submit} noValidate aria-label="File details">
            <FormError message={Object.keys(form.errors).length > 0 ? FIELDS_MESSAGE : null} />
            <FormError message={serverError} />
            <FileFields
              mode="upload"
              form={form}
              dispatch={dispatch}
              typeChoices={FILE_TYPES.filter((t) => opts?.fileTypes.includes(t.id))}
              tiers={tiers}
              privateOnly={opts?.privateOnly ?? false}
            />
            <div className={styles.row}>
              {canSetTrackNumber && (
                <Field label="Track number" optional {...errorProps(form.errors, 'trackNumber')}>
                  {(control) => (
                    <input
                      {...control}
                      className="input"
                      inputMode="numeric"
                      value={draft.trackNumber}
                      maxLength={6}
                      onChange={(e) =>
                        dispatch({ type: 'set', field: 'trackNumber', value: e.target.value.trim() })
                      }
                    />
                  )}
                </Field>
              )}
              <Field label="Release date" optional>
                {(control) => (
                  <input
                    {...control}
                    className="input"
                    type="date"
                    value={draft.releaseDate}
                    onChange={(e) => dispatch({ type: 'set', field: 'releaseDate', value: e.target.value })}
                  />
                )}
              </Field>
            </div>
            <div className={styles.actions}>
              <SubmitButton pending={create.isPending || finishing} pendingLabel="Saving">
                {phase.step === 'ready' ? 'Save file' : 'Save file (after the upload)'}
              </SubmitButton>
            </div>
          </form>
        ))}
    </div>
  );
}
