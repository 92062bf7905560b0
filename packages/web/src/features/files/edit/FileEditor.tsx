import type { AudioFile, UpdateFileBody } from '@mesmer/shared/api/files';
import {
  canSetTier,
  editFollowsUploadRules,
  FILE_DESCRIPTION_MAX,
  FILE_NAME_MAX,
  FILE_TYPE_REQUIRED_MESSAGE,
  uploadScope,
} from '@mesmer/shared/domain/file-rules';
import { FILE_TYPES, fileTypeLabel } from '@mesmer/shared/domain/file-types';
import { useQuery } from '@tanstack/react-query';
import { Trash2, X } from 'lucide-react';
import { type FormEvent, type Ref, useId, useImperativeHandle, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useCensor } from '../../../library/useCensor.ts';
import {
  ConfirmPopup,
  FormError,
  Spinner,
  SubmitButton,
  Switch,
  Textarea,
  toast,
} from '../../../ui/index.ts';
import { triggersQuery } from '../../triggers/index.ts';
import { AttachmentsPanel } from './AttachmentsPanel.tsx';
import { uploadOptionsQuery, useDeleteFile, useUpdateFile } from './api.ts';
import styles from './edit.module.css';
import { fieldError } from './server-error.ts';
import { useUnsavedChanges } from './useUnsavedChanges.ts';

const TIER_REQUIRED = 'Choose the minimum tier for a paid-exclusive file.';

interface Draft {
  name: string;
  /** 0: none chosen. */
  fileType: number;
  triggers: { id: number; trains: boolean }[];
  description: string;
  isPublic: boolean;
  paidExclusive: boolean;
  /** '' : the 'Minimum tier...' placeholder. */
  tier: string;
}

/** The file's minimum tier (rank 1 is the lowest): the one of its tiers with the lowest rank. */
function minimumTier(file: AudioFile): string {
  const [lowest] = [...file.patreonTiers].sort((a, b) => a.rank - b.rank);
  return lowest?.id ?? '';
}

function draftOf(file: AudioFile): Draft {
  const tier = minimumTier(file);
  return {
    name: file.name,
    fileType: file.fileType,
    triggers: file.triggers.map((t) => ({ id: t.id, trains: t.trains })),
    description: file.description,
    isPublic: file.isPublic,
    paidExclusive: tier !== '',
    tier,
  };
}

const sameDraft = (a: Draft, b: Draft) => JSON.stringify(a) === JSON.stringify(b);

/** What a host (the track popup) asks of an open editor. */
export interface FileEditorHandle {
  /** Runs `next` at once, or after 'Unsaved changes' → Exit when there are unsaved changes. */
  leave(next: () => void): void;
}

/**
 * A file's edit mode: its fields, attachments and Delete. Save sends PUT /api/files and closes;
 * closing or leaving the page with unsaved changes asks first ('Unsaved changes', Exit).
 * Only the uploader with membership tiers chooses the tier (file-rules canSetTier); others keep it.
 * Used on the file page and in the track popup.
 */
export function FileEditor({
  file,
  editor,
  onClose,
  onDeleted,
  handle,
}: {
  file: AudioFile;
  /** The signed-in editor, as the shared rules take them. */
  editor: { id: number; roles: string[] };
  /** Back to view mode: after Save, or Cancel (confirmed when there are unsaved changes). */
  onClose: () => void;
  /** After Delete; by default the Files page opens (the file's own page is gone). */
  onDeleted?: () => void;
  handle?: Ref<FileEditorHandle>;
}) {
  const navigate = useNavigate();
  const censor = useCensor();
  const ids = { name: useId(), type: useId(), description: useId(), tier: useId(), trigger: useId() };
  const [initial] = useState(() => draftOf(file));
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [confirm, setConfirm] = useState<'exit' | 'delete' | null>(null);
  const options = useQuery(uploadOptionsQuery);
  const triggers = useQuery(triggersQuery);
  const update = useUpdateFile();
  const remove = useDeleteFile();
  const dirty = !sameDraft(draft, initial);
  const { blocker, allowLeave } = useUnsavedChanges(dirty);
  // What Exit in 'Unsaved changes' goes on to: back to view mode, or the host's own close.
  const afterExit = useRef(onClose);
  const leave = (next: () => void) => {
    if (!dirty) return next();
    afterExit.current = next;
    setConfirm('exit');
  };
  useImperativeHandle(handle, () => ({ leave }));

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    const tierField = key === 'tier' || key === 'paidExclusive';
    if (error?.field === key || (tierField && error?.field === 'patreonTier')) setError(null);
  };

  const tiers = options.data?.tiers ?? [];
  const mayChooseTier = canSetTier(editor, file, tiers.length > 0);
  // The uploader keeps to the upload rules (music-only creators: music and AI music; contributors:
  // private only); WRITE_ALL_FILES holders may set any type. The file's own type stays listed.
  const scope = editFollowsUploadRules(editor) ? uploadScope(editor) : null;
  const allowed: readonly number[] = scope?.fileTypes ?? FILE_TYPES.map((t) => t.id);
  const typeChoices = FILE_TYPES.filter((t) => allowed.includes(t.id) || t.id === file.fileType);
  const privateOnly = scope?.privateOnly ?? false;
  const triggerName = (id: number) =>
    censor.trigger(triggers.data?.find((t) => t.id === id)?.name ?? `#${id}`);
  const offered = triggers.data?.filter((t) => !draft.triggers.some((c) => c.id === t.id)) ?? [];

  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!draft.fileType) return setError({ message: FILE_TYPE_REQUIRED_MESSAGE, field: 'fileType' });
    if (mayChooseTier && draft.paidExclusive && !draft.tier) {
      return setError({ message: TIER_REQUIRED, field: 'patreonTier' });
    }
    setError(null);
    const body: UpdateFileBody = {
      id: file.id,
      name: draft.name.trim(),
      description: draft.description,
      // A non-uploader keeps the file's tier; the server keeps it too.
      patreonTier: mayChooseTier ? (draft.paidExclusive ? draft.tier : null) : initial.tier || null,
      triggers: draft.triggers,
      fileType: draft.fileType,
      isPublic: draft.isPublic,
    };
    update.mutate(body, {
      onSuccess: () => {
        toast('success', 'File updated!');
        onClose();
      },
      onError: (err) => setError({ message: err.message, field: fieldError(err).field }),
    });
  };

  const deleteFile = () =>
    remove.mutate(file.id, {
      onSuccess: () => {
        setConfirm(null);
        allowLeave();
        if (onDeleted) onDeleted();
        else navigate('/files');
        toast('success', 'File deleted!');
      },
      onError: (err) => {
        setConfirm(null);
        toast('error', 'The file could not be deleted.', err.message);
      },
    });

  const cancel = () => leave(onClose);
  const invalid = (field: string) => (error?.field === field ? true : undefined);

  return (
    <>
      <form className={styles.form} onSubmit={save} noValidate aria-label="Edit file">
        <div className="field">
          <label htmlFor={ids.name}>Name</label>
          <input
            id={ids.name}
            className="input"
            value={draft.name}
            maxLength={FILE_NAME_MAX}
            required
            aria-invalid={invalid('name')}
            onChange={(e) => set('name', e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.type}>File type</label>
          <select
            id={ids.type}
            className="select"
            value={draft.fileType}
            aria-invalid={invalid('fileType')}
            onChange={(e) => set('fileType', Number(e.target.value))}
          >
            <option value={0}>File type...</option>
            {typeChoices.map((t) => (
              <option key={t.id} value={t.id}>
                {fileTypeLabel(t.name)}
              </option>
            ))}
          </select>
        </div>

        <fieldset className={styles.fieldset}>
          <legend className="field-label">Triggers</legend>
          {draft.triggers.length > 0 && (
            <ul className={styles.triggerRows}>
              {draft.triggers.map((t) => (
                <li key={t.id} className={styles.triggerRow}>
                  <span className={styles.triggerName}>{triggerName(t.id)}</span>
                  <label className={styles.inline}>
                    <input
                      type="checkbox"
                      aria-label={`Trains ${triggerName(t.id)}`}
                      checked={t.trains}
                      onChange={(e) =>
                        set(
                          'triggers',
                          draft.triggers.map((x) => (x.id === t.id ? { ...x, trains: e.target.checked } : x)),
                        )
                      }
                    />
                    Trains
                  </label>
                  <button
                    type="button"
                    className="icon-btn"
                    aria-label={`Remove ${triggerName(t.id)}`}
                    onClick={() =>
                      set(
                        'triggers',
                        draft.triggers.filter((x) => x.id !== t.id),
                      )
                    }
                  >
                    <X size={16} />
                  </button>
                </li>
              ))}
            </ul>
          )}
          {triggers.isPending ? (
            <Spinner size={18} label="Loading triggers" />
          ) : (
            <>
              <label htmlFor={ids.trigger} className="visually-hidden">
                Add a trigger
              </label>
              <select
                id={ids.trigger}
                className="select"
                value=""
                disabled={triggers.isError}
                onChange={(e) => {
                  const id = Number(e.target.value);
                  if (id) set('triggers', [...draft.triggers, { id, trains: false }]);
                }}
              >
                <option value="">
                  {triggers.isError ? 'Triggers could not be loaded' : 'Add a trigger...'}
                </option>
                {offered.map((t) => (
                  <option key={t.id} value={t.id}>
                    {censor.trigger(t.name)}
                  </option>
                ))}
              </select>
            </>
          )}
        </fieldset>

        <div className="field">
          <label htmlFor={ids.description}>Description</label>
          <Textarea
            id={ids.description}
            value={draft.description}
            maxLength={FILE_DESCRIPTION_MAX}
            onChange={(e) => set('description', e.target.value)}
          />
        </div>

        <Switch
          label="Public"
          description={
            privateOnly ? 'Your files stay private.' : 'Private files are seen only by you and staff.'
          }
          disabled={privateOnly && !draft.isPublic}
          checked={draft.isPublic}
          onChange={(on) => set('isPublic', on)}
        />

        {mayChooseTier ? (
          <>
            <Switch
              label="Paid exclusive"
              description="Only members of the chosen tier or above can play it."
              checked={draft.paidExclusive}
              onChange={(on) => set('paidExclusive', on)}
            />
            {draft.paidExclusive && (
              <div className="field">
                <label htmlFor={ids.tier}>Minimum tier</label>
                <select
                  id={ids.tier}
                  className="select"
                  value={draft.tier}
                  aria-invalid={invalid('patreonTier')}
                  onChange={(e) => set('tier', e.target.value)}
                >
                  <option value="">Minimum tier...</option>
                  {tiers.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.name}
                    </option>
                  ))}
                </select>
              </div>
            )}
          </>
        ) : (
          file.patreonTiers.length > 0 && (
            <p className="muted">
              Paid exclusive ({file.patreonTiers.map((t) => t.name).join(', ')}): only the uploader changes
              this.
            </p>
          )
        )}

        <FormError message={error?.message} />
        <div className={styles.formActions}>
          <SubmitButton pending={update.isPending} pendingLabel="Saving">
            Save
          </SubmitButton>
          <button type="button" className="btn btn-ghost" onClick={cancel}>
            Cancel
          </button>
          <button
            type="button"
            className={`btn btn-danger ${styles.delete}`}
            onClick={() => setConfirm('delete')}
          >
            <Trash2 size={16} aria-hidden /> Delete file
          </button>
        </div>
      </form>

      <AttachmentsPanel file={file} />

      <ConfirmPopup
        open={confirm === 'exit' || blocker.state === 'blocked'}
        title="Unsaved changes"
        message="Your changes to this file are not saved. Leave without saving?"
        confirmLabel="Exit"
        onConfirm={() => {
          if (blocker.state === 'blocked') blocker.proceed();
          else {
            setConfirm(null);
            afterExit.current();
          }
        }}
        onCancel={() => {
          if (blocker.state === 'blocked') blocker.reset();
          setConfirm(null);
        }}
      />
      <ConfirmPopup
        open={confirm === 'delete'}
        title="Delete file?"
        message={`“${censor.text(
          file.name,
          file.triggers.map((t) => t.name),
        )}” and its media will be deleted for good, and it leaves every playlist.`}
        confirmLabel="Delete"
        danger
        busy={remove.isPending}
        onConfirm={deleteFile}
        onCancel={() => setConfirm(null)}
      />
    </>
  );
}
