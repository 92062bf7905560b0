import { useQuery } from '@tanstack/react-query';
import { CalendarDays, ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { useCurrentUser } from '../../api/auth.ts';
import { plansQuery } from '../../api/plans.ts';
import styles from '../../library/library.module.css';
import { EmptyState, ErrorState, LoadingState, usePageTitle } from '../../ui/index.ts';
import page from './plans.module.css';

/** /plans: every training plan, each linking to its days. */
export default function PlansPage() {
  usePageTitle('Training Plans');
  const { user } = useCurrentUser();
  const plans = useQuery(plansQuery);
  return (
    <>
      <div className={styles.pageHeader}>
        <div>
          <h1>Training Plans</h1>
          <p className={styles.lead}>Multi-day programmes: one playlist per day, unlocked as you go.</p>
        </div>
      </div>
      {plans.isPending ? (
        <LoadingState label="Loading training plans" />
      ) : plans.isError ? (
        <ErrorState message="The training plans could not be loaded." onRetry={plans.refetch} />
      ) : plans.data.length === 0 ? (
        <EmptyState>No training plans yet.</EmptyState>
      ) : (
        <ul className={page.grid} aria-label="Training plans">
          {plans.data.map((plan) => {
            const done = Math.min(plan.position - 1, plan.playlistCount);
            return (
              <li key={plan.id}>
                <Link className={page.planCard} to={`/plan/${plan.uuid}`}>
                  <span className={page.planIcon} aria-hidden>
                    <CalendarDays size={24} />
                  </span>
                  <span className={page.planText}>
                    <span className={page.planName}>{plan.name}</span>
                    {plan.description && <span className={page.planDescription}>{plan.description}</span>}
                    <span className={page.planMeta}>
                      {plan.playlistCount} {plan.playlistCount === 1 ? 'day' : 'days'} · by{' '}
                      {plan.creator.username}
                      {user && done > 0 && ` · ${done} of ${plan.playlistCount} done`}
                    </span>
                    {user && plan.playlistCount > 0 && (
                      <span className={page.progress} aria-hidden>
                        <span style={{ width: `${(done / plan.playlistCount) * 100}%` }} />
                      </span>
                    )}
                  </span>
                  <ChevronRight size={20} className={page.chevron} aria-hidden />
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
