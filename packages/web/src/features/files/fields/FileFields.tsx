import { FILE_DESCRIPTION_MAX, FILE_NAME_MAX } from '@mesmer/shared/domain/file-rules';
import { fileTypeLabel } from '@mesmer/shared/domain/file-types';
import { Lock } from 'lucide-react';
import type { Dispatch } from 'react';
import { TriggerPicker } from '../../../library/TriggerPicker.tsx';
import { Field, focusOnMount, Select, Switch, Textarea } from '../../../ui/index.ts';
import styles from './fields.module.css';
import type { FieldErrors, FileFieldName, FileForm, FileFormAction } from './file-draft.ts';

/** The same words as the locked-file notice (library/FileNotices.tsx). */
const PAID_HINT = 'Only members of the chosen tier or higher can play it.';

/**
 * The fields a file's upload form and editor share: name, type, triggers, description, the
 * Public switch (edit) or private-only note (upload), and Paid exclusive with its tier.
 */
export function FileFields({
  mode,
  form: { draft, errors },
  dispatch,
  typeChoices,
  tiers,
  privateOnly,
}: {
  mode: 'upload' | 'edit';
  form: FileForm;
  dispatch: Dispatch<FileFormAction>;
  typeChoices: readonly { id: number; name: string }[];
  /** The tiers this editor may choose from; none: no Paid exclusive switch. */
  tiers: readonly { id: string; name: string }[];
  /** The uploader may keep files private only. */
  privateOnly: boolean;
}) {
  // The upload form marks its optional fields; the editor shows a file's fields as they are.
  const markOptional = mode === 'upload';
  const errorOf = (field: FileFieldName) => errorProps(errors, field);

  return (
    <>
      {mode === 'upload' && privateOnly && (
        <p className={`muted ${styles.note}`}>
          <Lock size={16} aria-hidden /> This file stays private: only you can find and play it.
        </p>
      )}
      <Field label="Name" {...errorOf('name')}>
        {(control) => (
          <input
            {...control}
            className="input"
            value={draft.name}
            maxLength={FILE_NAME_MAX}
            required
            ref={mode === 'upload' ? focusOnMount : undefined}
            onChange={(e) => dispatch({ type: 'set', field: 'name', value: e.target.value })}
          />
        )}
      </Field>
      <Field label="File type" {...errorOf('fileType')}>
        {(control) => (
          <Select
            {...control}
            value={draft.fileType || ''}
            required
            placeholder="File type..."
            options={typeChoices.map((t) => ({ value: t.id, label: fileTypeLabel(t.name) }))}
            onChange={(e) => dispatch({ type: 'set', field: 'fileType', value: Number(e.target.value) })}
          />
        )}
      </Field>
      <fieldset className={styles.fieldset}>
        <legend className="field-label">
          Triggers
          {markOptional && (
            <>
              {' '}
              <span className="muted">(optional)</span>
            </>
          )}
        </legend>
        <TriggerPicker
          label="Add a trigger"
          publishedOnly
          selected={draft.triggers.map((t) => t.id)}
          onAdd={(id) => dispatch({ type: 'addTrigger', id })}
          onRemove={(id) => dispatch({ type: 'removeTrigger', id })}
          rowControls={(id, name) => (
            <label className={styles.inline}>
              <input
                type="checkbox"
                aria-label={`Trains ${name}`}
                checked={draft.triggers.some((t) => t.id === id && t.trains)}
                onChange={(e) => dispatch({ type: 'setTrains', id, trains: e.target.checked })}
              />
              Trains
            </label>
          )}
        />
      </fieldset>
      <Field label="Description" optional={markOptional}>
        {(control) => (
          <Textarea
            {...control}
            value={draft.description}
            maxLength={FILE_DESCRIPTION_MAX}
            onChange={(e) => dispatch({ type: 'set', field: 'description', value: e.target.value })}
          />
        )}
      </Field>
      {mode === 'edit' && (
        <Switch
          label="Public"
          description={
            privateOnly ? 'Your files stay private.' : 'Private files are seen only by you and staff.'
          }
          disabled={privateOnly && !draft.isPublic}
          checked={draft.isPublic}
          onChange={(on) => dispatch({ type: 'set', field: 'isPublic', value: on })}
        />
      )}
      {tiers.length > 0 && (
        <>
          <Switch
            label="Paid exclusive"
            description={PAID_HINT}
            checked={draft.paidExclusive}
            onChange={(on) => dispatch({ type: 'set', field: 'paidExclusive', value: on })}
          />
          {draft.paidExclusive && (
            <Field label="Minimum tier" {...errorOf('tier')}>
              {(control) => (
                <Select
                  {...control}
                  value={draft.tier}
                  placeholder="Minimum tier..."
                  options={tiers.map((t) => ({ value: t.id, label: t.name }))}
                  onChange={(e) => dispatch({ type: 'set', field: 'tier', value: e.target.value })}
                />
              )}
            </Field>
          )}
        </>
      )}
    </>
  );
}

/** A field's error as Field takes it: a message to show, or only the invalid mark. */
export function errorProps(errors: FieldErrors, field: FileFieldName) {
  const error = errors[field];
  return typeof error === 'string' ? { error } : { invalid: error === true };
}
