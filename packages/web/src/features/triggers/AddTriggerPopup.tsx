import type { FormEvent } from 'react';
import styles from '../../library/library.module.css';
import { FormError, Modal, SubmitButton, toast } from '../../ui/index.ts';
import { useCreateTrigger } from './api.ts';
import { TriggerFields, useTriggerDraft } from './TriggerFields.tsx';

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
  const draft = useTriggerDraft();
  const create = useCreateTrigger();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const fields = draft.checked();
    if (!fields) return;
    create.mutate(fields, {
      onSuccess: (trigger) => {
        // A request waits for staff approval (decision 002), so it is not "added" yet.
        toast('success', trigger.pending ? 'Trigger requested!' : 'Trigger added!');
        onDone();
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <FormError message={create.error?.message} />
      <TriggerFields draft={draft} autoFocus />
      <div className={styles.formActions}>
        <SubmitButton pending={create.isPending} pendingLabel="Adding">
          Add trigger
        </SubmitButton>
      </div>
    </form>
  );
}
