import type { Trigger } from '@mesmer/shared/api/triggers';
import { TRIGGER_CATEGORIES, triggerSlug } from '@mesmer/shared/domain/triggers';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useCurrentUser, userCan } from '../../api/auth.ts';
import { triggersQuery } from '../../api/triggers.ts';
import styles from '../../library/library.module.css';
import { useCensor } from '../../library/useCensor.ts';
import { Card, EmptyState, ErrorState, LoadingState, SectionHeader, usePageTitle } from '../../ui/index.ts';
import { AddTriggerPopup } from './AddTriggerPopup.tsx';
import { TriggerRequests } from './TriggerRequests.tsx';
import page from './triggers.module.css';

/**
 * /triggers: core triggers (grouped by vocabulary category) beside the community's, with Add
 * trigger for those allowed, and the pending requests (all for staff, one's own for requesters).
 */
export default function TriggersPage() {
  usePageTitle('Triggers');
  const { user } = useCurrentUser();
  const triggers = useQuery(triggersQuery);
  const [adding, setAdding] = useState(false);
  const staff = userCan(user, 'CREATE_TRIGGERS');
  const canAdd = staff || userCan(user, 'REQUEST_TRIGGERS');

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
      {canAdd && (
        <div className={page.requests}>
          <TriggerRequests staff={staff} />
        </div>
      )}
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
          {core
            ? byCategory(list).map(([category, group]) => (
                <li key={category} className={page.group}>
                  <h3 className={page.groupTitle}>{category}</h3>
                  <ul className={page.list} aria-label={category}>
                    {group.map((t) => (
                      <TriggerItem key={t.id} trigger={t} />
                    ))}
                  </ul>
                </li>
              ))
            : list.map((t) => <TriggerItem key={t.id} trigger={t} showCreator />)}
        </ul>
      )}
    </Card>
  );
}

/** Core triggers grouped in the vocabulary's category order; others (no category) last. */
function byCategory(list: Trigger[]): [string, Trigger[]][] {
  const order: readonly string[] = [...TRIGGER_CATEGORIES, OTHER];
  const groups = new Map<string, Trigger[]>();
  for (const t of list) {
    const key = t.category ?? OTHER;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  return [...groups].sort(([a], [b]) => rank(order, a) - rank(order, b));
}

const OTHER = 'Other';
const rank = (order: readonly string[], category: string) => {
  const i = order.indexOf(category);
  return i === -1 ? order.length - 1 : i;
};

function TriggerItem({ trigger: t, showCreator = false }: { trigger: Trigger; showCreator?: boolean }) {
  const censor = useCensor();
  return (
    <li>
      <Link className={page.item} to={`/trigger/${encodeURIComponent(triggerSlug(t.name))}`}>
        <span className={page.name}>{censor.trigger(t.name)}</span>
        {t.description && <span className={page.description}>{t.description}</span>}
        {showCreator && t.creator && <span className={page.creator}>by {t.creator.username}</span>}
      </Link>
    </li>
  );
}
