import { triggerSlug, UUID_PATTERN } from '@mesmer/shared/domain/triggers';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useParams } from 'react-router';
import { triggerQuery } from '../../api/triggers.ts';
import { ApiError } from '../../lib/api-client.ts';
import { Section } from '../../library/Collapsible.tsx';
import { useCensor } from '../../library/useCensor.ts';
import { Card, ErrorState, LoadingState, Tag, usePageTitle } from '../../ui/index.ts';
import { TriggerFiles } from './TriggerFiles.tsx';
import page from './triggers.module.css';

/** /trigger/{name_or_uuid}: a uuid is looked up as such, anything else by its name slug. */
export default function TriggerPage() {
  const { nameOrUuid = '' } = useParams();
  const lookup = UUID_PATTERN.test(nameOrUuid) ? { uuid: nameOrUuid } : { name: triggerSlug(nameOrUuid) };
  const trigger = useQuery(triggerQuery(lookup));
  const censor = useCensor();
  usePageTitle(trigger.data ? censor.trigger(trigger.data.name) : 'Trigger');

  if (trigger.isPending) return <LoadingState label="Loading trigger" />;
  if (trigger.isError) {
    if (trigger.error instanceof ApiError && trigger.error.status === 404)
      return <Navigate to="/404" replace />;
    return <ErrorState message="The trigger could not be loaded." onRetry={trigger.refetch} />;
  }
  const t = trigger.data;
  return (
    <Card className={page.detail}>
      <div className={page.header}>
        <h1>
          {censor.trigger(t.name)}
          {!t.isCore && <Tag tone="info">Community</Tag>}
        </h1>
        {t.creator && (
          <p className={page.meta}>
            Created by{' '}
            <Link to={`/user/${encodeURIComponent(t.creator.username)}`}>{t.creator.username}</Link>
          </p>
        )}
        {t.category && <p className={page.meta}>Category: {t.category}</p>}
      </div>
      <div className={page.sections}>
        <Section title="Description" defaultOpen>
          {t.description ? <p>{t.description}</p> : <p className="muted">No description.</p>}
        </Section>
        <Section title="Trained In">
          <TriggerFiles triggerId={t.id} trains />
        </Section>
        <Section title="Used In">
          <TriggerFiles triggerId={t.id} trains={false} />
        </Section>
      </div>
    </Card>
  );
}
