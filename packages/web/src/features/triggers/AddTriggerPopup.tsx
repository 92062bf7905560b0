import { TEXT_LIMITS } from '@mesmer/shared/api/common';
import { TRIGGER_DESCRIPTION_MAX } from '@mesmer/shared/domain/triggers';
import { type FormEvent, useId, useState } from 'react';
import styles from '../../library/library.module.css';
import { FormError, Modal, SubmitButton, Textarea, toast } from '../../ui/index.ts';
import { useCreateTrigger } from './api.ts';

/**
 * Name and description (at most 250 characters; typing beyond is ignored). Clears and closes when
 * added or, for holders of only the request permission, requested.
 */
export function AddTriggerPopup({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} title="Add trigger" onClose={onClose} width={460}>
      <AddTriggerForm onDone={onClose} />
    </Modal>
  );
}

function AddTriggerForm({ onDone }: { onDone: () => void }) {
  const ids = { name: useId(), description: useId(), counter: useId() };
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [nameMissing, setNameMissing] = useState(false);
  const create = useCreateTrigger();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // Without a name nothing is sent.
    if (!name.trim()) return setNameMissing(true);
    create.mutate(
      { name: name.trim(), description },
      {
        onSuccess: (trigger) => {
          // A request waits for staff approval (decision 002), so it is not "added" yet.
          toast('success', trigger.pending ? 'Trigger requested!' : 'Trigger added!');
          onDone();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <FormError message={create.error?.message} />
      <div className="field">
        <label htmlFor={ids.name}>Name</label>
        <input
          id={ids.name}
          className="input"
          value={name}
          maxLength={TEXT_LIMITS.triggerName}
          aria-invalid={nameMissing}
          onChange={(e) => {
            setName(e.target.value);
            setNameMissing(false);
          }}
          autoFocus
        />
      </div>
      <div className="field">
        <label htmlFor={ids.description}>Description</label>
        <Textarea
          id={ids.description}
          value={description}
          aria-describedby={ids.counter}
          onChange={(e) => setDescription(e.target.value.slice(0, TRIGGER_DESCRIPTION_MAX))}
        />
        <span id={ids.counter} className={styles.counter}>
          {description.length}/{TRIGGER_DESCRIPTION_MAX}
        </span>
      </div>
      <div className={styles.formActions}>
        <SubmitButton pending={create.isPending} pendingLabel="Adding">
          Add trigger
        </SubmitButton>
      </div>
    </form>
  );
}
