import type { Trigger } from '@mesmer/shared/api/triggers';
import { triggerSlug } from '@mesmer/shared/domain/triggers';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import styles from '../../components/library.module.css';
import { useCensor } from '../../components/useCensor.ts';
import { Card, EmptyState, ErrorState, LoadingState, SectionHeader, usePageTitle } from '../../ui/index.ts';
import { useCurrentUser, userCan } from '../auth/api.ts';
import { AddTriggerPopup } from './AddTriggerPopup.tsx';
import { triggersQuery } from './api.ts';
import page from './triggers.module.css';

/** /triggers: core triggers beside the community's, with Add trigger for those allowed. */
export default function TriggersPage() {
  usePageTitle('Triggers');
  const { user } = useCurrentUser();
  const triggers = useQuery(triggersQuery);
  const [adding, setAdding] = useState(false);
  const canAdd = userCan(user, 'CREATE_TRIGGERS') || userCan(user, 'REQUEST_TRIGGERS');

  return (
    <>
      <div className={styles.pageHeader}>
        <div>
          <h1>Triggers</h1>
          <p className={styles.lead}>What each trigger does, and which files train or use it.</p>
        </div>
        {canAdd && (
          <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
            <Plus size={18} aria-hidden /> Add trigger
          </button>
        )}
      </div>
      <div className={styles.columns}>
        <TriggerSection title="Core Triggers" query={triggers} core />
        <TriggerSection title="Community Triggers" query={triggers} core={false} />
      </div>
      <AddTriggerPopup open={adding} onClose={() => setAdding(false)} />
    </>
  );
}

function TriggerSection({
  title,
  query,
  core,
}: {
  title: string;
  query: UseQueryResult<Trigger[]>;
  core: boolean;
}) {
  const censor = useCensor();
  const list = query.data?.filter((t) => t.isCore === core);
  return (
    <Card>
      <SectionHeader title={title} />
      {query.isPending ? (
        <LoadingState label="Loading triggers" />
      ) : query.isError ? (
        <ErrorState message="The triggers could not be loaded." onRetry={query.refetch} />
      ) : !list || list.length === 0 ? (
        <EmptyState>No triggers yet.</EmptyState>
      ) : (
        <ul className={page.list} aria-label={title}>
          {list.map((t) => (
            <li key={t.id}>
              <Link className={page.item} to={`/trigger/${encodeURIComponent(triggerSlug(t.name))}`}>
                <span className={page.name}>{censor.trigger(t.name)}</span>
                {t.description && <span className={page.description}>{t.description}</span>}
                {!core && <span className={page.creator}>by {t.creator.username}</span>}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
