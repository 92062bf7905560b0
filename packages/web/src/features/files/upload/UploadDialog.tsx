/**
 * The upload dialog (spec: Upload): a drop zone and file picker, the byte progress bar,
 * 'Processing' after the last chunk, and the form that makes the finished upload into a file.
 * The form is filled in while the file goes up; it is sent once the upload is complete. The
 * dialog starts afresh every time it opens (its content unmounts when closed, which also stops
 * an upload still going: it can be resumed by picking the same file again).
 */
import type { CreateFileBody } from '@mesmer/shared/api/files';
import {
  FILE_DESCRIPTION_MAX,
  FILE_NAME_MAX,
  FILE_TYPE_REQUIRED_MESSAGE,
} from '@mesmer/shared/domain/file-rules';
import { FILE_TYPES, fileTypeLabel } from '@mesmer/shared/domain/file-types';
import { MAX_UPLOAD_BYTES, UPLOAD_FORMATS } from '@mesmer/shared/domain/upload-limits';
import { useQuery } from '@tanstack/react-query';
import { Lock, Upload } from 'lucide-react';
import { type DragEvent, type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import {
  ErrorState,
  FormError,
  focusOnMount,
  Modal,
  Spinner,
  SubmitButton,
  Switch,
  Textarea,
  toast,
} from '../../../ui/index.ts';
import { uploadOptionsQuery } from '../edit/api.ts';
import { useCreateFile } from './api.ts';
import { type PickedTrigger, TriggerPicker } from './TriggerPicker.tsx';
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

type Field = 'name' | 'fileType' | 'tier' | 'trackNumber';

const withoutExtension = (name: string) => name.replace(/\.[^.]+$/, '');
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
  const ids = {
    input: useId(),
    name: useId(),
    type: useId(),
    description: useId(),
    tier: useId(),
    track: useId(),
    date: useId(),
    typeError: useId(),
    tierError: useId(),
    trackError: useId(),
  };
  const options = useQuery(uploadOptionsQuery);
  const create = useCreateFile();
  const [phase, setPhase] = useState<Phase>(
    start.kind === 'finish' ? { step: 'ready', uuid: start.uuid } : { step: 'pick' },
  );
  const [file, setFile] = useState<File | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [name, setName] = useState(start.kind === 'new' ? '' : withoutExtension(start.fileName));
  const [fileType, setFileType] = useState('');
  const [triggers, setTriggers] = useState<PickedTrigger[]>([]);
  const [description, setDescription] = useState('');
  const [paid, setPaid] = useState(false);
  // '' is the 'Minimum tier...' placeholder, which is not a valid choice.
  const [tier, setTier] = useState('');
  const [trackNumber, setTrackNumber] = useState('');
  const [releaseDate, setReleaseDate] = useState('');
  const [invalid, setInvalid] = useState<Partial<Record<Field, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [finishing, setFinishing] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const paidRef = useRef(false);
  paidRef.current = paid && tier !== '';

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
    if (!name.trim()) setName(withoutExtension(picked.name).slice(0, FILE_NAME_MAX));
    send(picked);
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    pick([...e.dataTransfer.files]);
  };

  const opts = options.data;
  const tiers = opts?.tiers ?? [];
  const typeChoices = FILE_TYPES.filter((t) => opts?.fileTypes.includes(t.id));
  const clear = (field: Field) => setInvalid(({ [field]: _, ...rest }) => rest);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const errors: Partial<Record<Field, string>> = {};
    if (!name.trim()) errors.name = 'A name is required.';
    if (!fileType) errors.fileType = FILE_TYPE_REQUIRED_MESSAGE;
    if (paid && tiers.length > 0 && !tier) errors.tier = 'Choose the minimum tier.';
    if (opts?.canSetTrackNumber && trackNumber !== '' && !/^\d+$/.test(trackNumber)) {
      errors.trackNumber = 'The track number is digits only, 0 or more.';
    }
    setInvalid(errors);
    setServerError(null);
    if (Object.keys(errors).length > 0 || phase.step !== 'ready') return;
    const body: CreateFileBody = {
      name: name.trim(),
      description,
      uuid: phase.uuid,
      triggers,
      fileType: Number(fileType),
      ...(paid && tier ? { patreonTier: tier } : {}),
      ...(opts?.canSetTrackNumber && trackNumber !== '' ? { trackNumber: Number(trackNumber) } : {}),
      ...(releaseDate ? { releaseDate: new Date(`${releaseDate}T00:00:00.000Z`).toISOString() } : {}),
    };
    create.mutate(body, {
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
  const fieldInvalid = (field: Field) => (invalid[field] ? true : undefined);

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
            id={ids.input}
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
          <label htmlFor={ids.input} className={`btn btn-primary btn-small ${styles.pick}`}>
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
            <FormError message={Object.keys(invalid).length > 0 ? FIELDS_MESSAGE : null} />
            <FormError message={serverError} />
            {opts?.privateOnly && (
              <p className={`muted ${styles.note}`}>
                <Lock size={16} aria-hidden /> This file stays private: only you can find and play it.
              </p>
            )}
            <div className="field">
              <label htmlFor={ids.name}>Name</label>
              <input
                id={ids.name}
                className="input"
                value={name}
                maxLength={FILE_NAME_MAX}
                required
                ref={focusOnMount}
                aria-invalid={fieldInvalid('name')}
                onChange={(e) => {
                  setName(e.target.value);
                  clear('name');
                }}
              />
            </div>
            <div className="field">
              <label htmlFor={ids.type}>File type</label>
              <select
                id={ids.type}
                className="select"
                value={fileType}
                required
                aria-invalid={fieldInvalid('fileType')}
                aria-describedby={invalid.fileType ? ids.typeError : undefined}
                onChange={(e) => {
                  setFileType(e.target.value);
                  clear('fileType');
                }}
              >
                <option value="">File type...</option>
                {typeChoices.map((t) => (
                  <option key={t.id} value={t.id}>
                    {fileTypeLabel(t.name)}
                  </option>
                ))}
              </select>
              {invalid.fileType && (
                <p id={ids.typeError} className={styles.fieldError}>
                  {invalid.fileType}
                </p>
              )}
            </div>
            <TriggerPicker value={triggers} onChange={setTriggers} />
            <div className="field">
              <label htmlFor={ids.description}>
                Description <span className="muted">(optional)</span>
              </label>
              <Textarea
                id={ids.description}
                value={description}
                maxLength={FILE_DESCRIPTION_MAX}
                onChange={(e) => setDescription(e.target.value)}
              />
            </div>
            {tiers.length > 0 && (
              <>
                <Switch
                  label="Paid exclusive"
                  description="Only members of the chosen tier or higher can play it."
                  checked={paid}
                  onChange={(on) => {
                    setPaid(on);
                    clear('tier');
                  }}
                />
                {paid && (
                  <div className="field">
                    <label htmlFor={ids.tier}>Minimum tier</label>
                    <select
                      id={ids.tier}
                      className="select"
                      value={tier}
                      aria-invalid={fieldInvalid('tier')}
                      aria-describedby={invalid.tier ? ids.tierError : undefined}
                      onChange={(e) => {
                        setTier(e.target.value);
                        clear('tier');
                      }}
                    >
                      <option value="">Minimum tier...</option>
                      {tiers.map((t) => (
                        <option key={t.id} value={t.id}>
                          {t.name}
                        </option>
                      ))}
                    </select>
                    {invalid.tier && (
                      <p id={ids.tierError} className={styles.fieldError}>
                        {invalid.tier}
                      </p>
                    )}
                  </div>
                )}
              </>
            )}
            <div className={styles.row}>
              {opts?.canSetTrackNumber && (
                <div className="field">
                  <label htmlFor={ids.track}>
                    Track number <span className="muted">(optional)</span>
                  </label>
                  <input
                    id={ids.track}
                    className="input"
                    inputMode="numeric"
                    value={trackNumber}
                    maxLength={6}
                    aria-invalid={fieldInvalid('trackNumber')}
                    aria-describedby={invalid.trackNumber ? ids.trackError : undefined}
                    onChange={(e) => {
                      setTrackNumber(e.target.value.trim());
                      clear('trackNumber');
                    }}
                  />
                  {invalid.trackNumber && (
                    <p id={ids.trackError} className={styles.fieldError}>
                      {invalid.trackNumber}
                    </p>
                  )}
                </div>
              )}
              <div className="field">
                <label htmlFor={ids.date}>
                  Release date <span className="muted">(optional)</span>
                </label>
                <input
                  id={ids.date}
                  className="input"
                  type="date"
                  value={releaseDate}
                  onChange={(e) => setReleaseDate(e.target.value)}
                />
              </div>
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
