import type { Trigger } from '@mesmer/shared/api/triggers';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { triggerRequestsQuery } from '../../api/triggers.ts';
import styles from '../../library/library.module.css';
import {
  Card,
  ConfirmPopup,
  EmptyState,
  ErrorState,
  FormError,
  LoadingState,
  SectionHeader,
  SubmitButton,
  Tag,
  toast,
} from '../../ui/index.ts';
import { useDeleteTrigger, useUpdateTrigger } from './api.ts';
import { TriggerFields, useTriggerDraft } from './TriggerFields.tsx';
import page from './triggers.module.css';

/**
 * Pending trigger requests (decision 002). Staff (CREATE_TRIGGERS) review every request:
 * approve, edit or delete; a requester sees their own as pending.
 */
export function TriggerRequests({ staff }: { staff: boolean }) {
  const requests = useQuery(triggerRequestsQuery);
  const title = staff ? 'Trigger requests' : 'Your trigger requests';
  if (!staff && requests.data?.length === 0) return null;
  return (
    <Card>
      <SectionHeader title={title} />
      {requests.isPending ? (
        <LoadingState label="Loading trigger requests" />
      ) : requests.isError ? (
        <ErrorState message="The trigger requests could not be loaded." onRetry={requests.refetch} />
      ) : requests.data.length === 0 ? (
        <EmptyState>No requests waiting.</EmptyState>
      ) : (
        <ul className={page.list} aria-label={title}>
          {requests.data.map((t) => (
            <li key={t.id} className={page.request}>
              {staff ? <ReviewItem trigger={t} /> : <PendingItem trigger={t} />}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function PendingItem({ trigger }: { trigger: Trigger }) {
  return (
    <div className={page.requestText}>
      <span className={page.name}>
        {trigger.name} <Tag tone="warning">Pending</Tag>
      </span>
      {trigger.description && <span className={page.description}>{trigger.description}</span>}
    </div>
  );
}

function ReviewItem({ trigger }: { trigger: Trigger }) {
  const update = useUpdateTrigger();
  const remove = useDeleteTrigger();
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  if (editing) return <EditForm trigger={trigger} onDone={() => setEditing(false)} />;
  return (
    <>
      <div className={page.requestText}>
        <span className={page.name}>{trigger.name}</span>
        {trigger.description && <span className={page.description}>{trigger.description}</span>}
        {trigger.creator && <span className={page.creator}>requested by {trigger.creator.username}</span>}
      </div>
      <FormError message={update.error?.message ?? remove.error?.message} />
      <div className={page.requestActions}>
        <button
          type="button"
          className="btn btn-primary btn-small"
          disabled={update.isPending}
          aria-label={`Approve ${trigger.name}`}
          onClick={() =>
            update.mutate(
              { id: trigger.id, approve: true },
              { onSuccess: () => toast('success', 'Trigger approved!') },
            )
          }
        >
          Approve
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-small"
          aria-label={`Edit ${trigger.name}`}
          onClick={() => setEditing(true)}
        >
          Edit
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-small"
          aria-label={`Delete ${trigger.name}`}
          onClick={() => setConfirmDelete(true)}
        >
          Delete
        </button>
      </div>
      <ConfirmPopup
        open={confirmDelete}
        title="Delete trigger request?"
        message={`“${trigger.name}” will be deleted for good.`}
        confirmLabel="Delete"
        danger
        busy={remove.isPending}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() =>
          remove.mutate(trigger.id, {
            onSuccess: () => {
              setConfirmDelete(false);
              toast('success', 'Trigger deleted.');
            },
          })
        }
      />
    </>
  );
}

function EditForm({ trigger, onDone }: { trigger: Trigger; onDone: () => void }) {
  const update = useUpdateTrigger();
  const draft = useTriggerDraft(trigger);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const fields = draft.checked();
    if (fields) update.mutate({ id: trigger.id, ...fields }, { onSuccess: onDone });
  };

  return (
    <form onSubmit={submit} noValidate className={page.requestText} aria-label={`Edit ${trigger.name}`}>
      <FormError message={update.error?.message} />
      <TriggerFields draft={draft} />
      <div className={styles.formActions}>
        <button type="button" className="btn btn-ghost" onClick={onDone}>
          Cancel
        </button>
        <SubmitButton pending={update.isPending} pendingLabel="Saving">
          Save
        </SubmitButton>
      </div>
    </form>
  );
}
