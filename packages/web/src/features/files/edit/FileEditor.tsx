import type { AudioFile } from '@mesmer/shared/api/files';
import { canSetTier, editFollowsUploadRules, uploadScope } from '@mesmer/shared/domain/file-rules';
import { FILE_TYPES } from '@mesmer/shared/domain/file-types';
import { useQuery } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { type FormEvent, type Ref, useImperativeHandle, useReducer, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { uploadOptionsQuery } from '../../../api/files.ts';
import { useFeatureSlots } from '../../../library/feature-slots.tsx';
import { useCensor } from '../../../library/useCensor.ts';
import { ConfirmPopup, FormError, SubmitButton, toast } from '../../../ui/index.ts';
import { FileFields } from '../fields/FileFields.tsx';
import {
  draftField,
  EMPTY_DRAFT,
  editError,
  type FileDraft,
  type FileFieldName,
  fileFormReducer,
  updateFileBody,
} from '../fields/file-draft.ts';
import { AttachmentsPanel } from './AttachmentsPanel.tsx';
import { useDeleteFile, useUpdateFile } from './api.ts';
import styles from './edit.module.css';
import { fieldError } from './server-error.ts';
import { useUnsavedChanges } from './useUnsavedChanges.ts';

/** The file's minimum tier (rank 1 is the lowest): the one of its tiers with the lowest rank. */
function minimumTier(file: AudioFile): string {
  const [lowest] = [...file.patreonTiers].sort((a, b) => a.rank - b.rank);
  return lowest?.id ?? '';
}

function draftOf(file: AudioFile): FileDraft {
  const tier = minimumTier(file);
  return {
    ...EMPTY_DRAFT,
    name: file.name,
    fileType: file.fileType,
    triggers: file.triggers.map((t) => ({ id: t.id, trains: t.trains })),
    description: file.description,
    isPublic: file.isPublic,
    paidExclusive: tier !== '',
    tier,
  };
}

const sameDraft = (a: FileDraft, b: FileDraft) => JSON.stringify(a) === JSON.stringify(b);

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
  const { CueEditorSection } = useFeatureSlots();
  const [initial] = useState(() => draftOf(file));
  const [form, dispatch] = useReducer(fileFormReducer, { draft: initial, errors: {} });
  // The form's one error line; a field's edit clears the mark, and with it the line about it.
  const [error, setError] = useState<{ message: string; field?: FileFieldName } | null>(null);
  const [confirm, setConfirm] = useState<'exit' | 'delete' | null>(null);
  // The cue editor opens on request (it loads the waveform at several zooms), or at once when a draft waits.
  const options = useQuery(uploadOptionsQuery);
  const update = useUpdateFile();
  const remove = useDeleteFile();
  const dirty = !sameDraft(form.draft, initial);
  const { blocker, allowLeave } = useUnsavedChanges(dirty);
  // What Exit in 'Unsaved changes' goes on to: back to view mode, or the host's own close.
  const afterExit = useRef(onClose);
  const leave = (next: () => void) => {
    if (!dirty) return next();
    afterExit.current = next;
    setConfirm('exit');
  };
  useImperativeHandle(handle, () => ({ leave }));

  const showError = (next: { message: string; field?: FileFieldName } | null) => {
    setError(next);
    dispatch({ type: 'invalid', errors: next?.field ? { [next.field]: true } : {} });
  };
  const shownError = error && (!error.field || form.errors[error.field]) ? error.message : null;

  const tiers = options.data?.tiers ?? [];
  const mayChooseTier = canSetTier(editor, file, tiers.length > 0);
  // The uploader keeps to the upload rules (music-only creators: music and AI music; contributors:
  // private only); WRITE_ALL_FILES holders may set any type. The file's own type stays listed.
  const scope = editFollowsUploadRules(editor) ? uploadScope(editor) : null;
  const allowed: readonly number[] = scope?.fileTypes ?? FILE_TYPES.map((t) => t.id);

  const save = (e: FormEvent) => {
    e.preventDefault();
    const problem = editError(form.draft, mayChooseTier);
    showError(problem);
    if (problem) return;
    const body = updateFileBody(file.id, form.draft, { mayChoose: mayChooseTier, keptTier: initial.tier });
    update.mutate(body, {
      onSuccess: () => {
        toast('success', 'File updated!');
        onClose();
      },
      onError: (err) => showError({ message: err.message, field: draftField(fieldError(err).field) }),
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

  return (
    <>
      <form className={styles.form} onSubmit={save} noValidate aria-label="Edit file">
        <FileFields
          mode="edit"
          form={form}
          dispatch={dispatch}
          typeChoices={FILE_TYPES.filter((t) => allowed.includes(t.id) || t.id === file.fileType)}
          tiers={mayChooseTier ? tiers : []}
          privateOnly={scope?.privateOnly ?? false}
        />
        {!mayChooseTier && file.patreonTiers.length > 0 && (
          <p className="muted">
            Paid exclusive ({file.patreonTiers.map((t) => t.name).join(', ')}): only the uploader changes
            this.
          </p>
        )}

        <FormError message={shownError} />
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
      <CueEditorSection file={file} />

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
