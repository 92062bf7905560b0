import type { ModerationLogEntry, ModerationReport } from '@mesmer/shared/api/moderation';
import {
  canModerate,
  MODERATION_NOTE_MAX,
  MODERATION_PAGE_SIZE,
  type ModerationAction,
  SUBJECT_LABELS,
} from '@mesmer/shared/domain/moderation';
import { mediumDateTime } from '@mesmer/shared/domain/number-format';
import { useQuery } from '@tanstack/react-query';
import { Ban, Check, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useCurrentUser } from '../../api/auth.ts';
import { moderationLogQuery, reportsQuery } from '../../api/moderation.ts';
import {
  Card,
  EmptyState,
  ErrorState,
  LoadingState,
  Pagination,
  SectionHeader,
  Tabs,
  Tag,
  toast,
  usePageTitle,
} from '../../ui/index.ts';
import { useModerationAction } from './api.ts';
import styles from './moderation.module.css';

type View = 'open' | 'closed' | 'log';
const VIEWS = [
  { id: 'open', label: 'Open reports' },
  { id: 'closed', label: 'Closed' },
  { id: 'log', label: 'Log' },
] as const;

const ACTION_LABELS: Record<ModerationAction, string> = {
  dismiss: 'Dismissed',
  remove: 'Removed',
  suspend: 'Suspended',
};

const at = (iso: string) => mediumDateTime(new Date(iso));

/** /moderation: the report queue and the audit log, for Moderators and Administrators. */
export default function ModerationPage() {
  usePageTitle('Moderation');
  const { user, isLoaded } = useCurrentUser();
  const [view, setView] = useState<View>('open');
  const [pageOffset, setPageOffset] = useState(0);

  if (!isLoaded) return <LoadingState label="Loading" />;
  if (!canModerate(user && { roles: user.roles.map((r) => r.name) })) {
    return (
      <Card className={styles.card}>
        <SectionHeader as="h1" title="Moderation" />
        <EmptyState>
          {user ? (
            'Only moderators and administrators can see the moderation queue.'
          ) : (
            <>
              <Link to="/login">Log in</Link> to see the moderation queue.
            </>
          )}
        </EmptyState>
      </Card>
    );
  }

  const switchView = (next: View) => {
    setView(next);
    setPageOffset(0);
  };
  return (
    <Card className={styles.card}>
      <SectionHeader as="h1" title="Moderation" />
      <Tabs tabs={VIEWS} value={view} onChange={switchView} label="Moderation views" />
      {view === 'log' ? (
        <LogView pageOffset={pageOffset} onPage={setPageOffset} />
      ) : (
        <ReportsView status={view} pageOffset={pageOffset} onPage={setPageOffset} />
      )}
    </Card>
  );
}

function ReportsView({
  status,
  pageOffset,
  onPage,
}: {
  status: 'open' | 'closed';
  pageOffset: number;
  onPage: (offset: number) => void;
}) {
  const reports = useQuery(reportsQuery(status, pageOffset));
  if (reports.isPending) return <LoadingState label="Loading reports" />;
  if (reports.isError)
    return <ErrorState message="The reports could not be loaded." onRetry={reports.refetch} />;
  const { reports: rows, totalItems } = reports.data;
  if (rows.length === 0) {
    return (
      <EmptyState>{status === 'open' ? 'No open reports. All clear!' : 'No closed reports yet.'}</EmptyState>
    );
  }
  return (
    <>
      <ul className={styles.reports}>
        {rows.map((r) => (
          <li key={r.id}>
            <ReportItem report={r} />
          </li>
        ))}
      </ul>
      <Pagination
        pageOffset={pageOffset}
        pageSize={MODERATION_PAGE_SIZE}
        totalItems={totalItems}
        onChange={onPage}
      />
    </>
  );
}

function ReportItem({ report: r }: { report: ModerationReport }) {
  const [note, setNote] = useState('');
  const act = useModerationAction();
  const run = (action: ModerationAction, messageId?: number) =>
    act.mutate(
      { reportId: r.id, action, messageId, note: note.trim() || undefined },
      {
        onSuccess: () => toast('success', `${ACTION_LABELS[action]}`, `Report #${r.id} is closed.`),
        onError: (error) => toast('error', 'The action failed.', error.message),
      },
    );
  const label = SUBJECT_LABELS[r.subjectType];

  return (
    <article className={styles.report} aria-labelledby={`report-${r.id}`}>
      <header className={styles.reportHead}>
        <Tag>{label}</Tag>
        <h2 id={`report-${r.id}`} className={styles.subject}>
          {r.subject.path ? (
            <Link to={r.subject.path}>{r.subject.title}</Link>
          ) : r.subjectType === 'thread' ? (
            `Conversation #${r.subjectId}`
          ) : (
            <span className={styles.muted}>Already removed</span>
          )}
        </h2>
        <span className={styles.muted}>
          #{r.id} · {at(r.createdAt)}
        </span>
      </header>
      <p className={styles.people}>
        Reported by{' '}
        {r.reporter ? (
          <Link to={`/user/${encodeURIComponent(r.reporter.username)}`}>{r.reporter.username}</Link>
        ) : (
          'a deleted user'
        )}
        {r.reportedUser && (
          <>
            {' · about '}
            <Link to={`/user/${encodeURIComponent(r.reportedUser.username)}`}>{r.reportedUser.username}</Link>
            {r.reportedUser.suspended && <Tag>Suspended</Tag>}
          </>
        )}
      </p>
      <blockquote className={styles.reason}>{r.reason || 'No details given.'}</blockquote>
      {r.subject.text && <p className={styles.excerpt}>{r.subject.text}</p>}
      {r.subjectType === 'thread' && (
        <ol className={styles.messages} aria-label="Messages up to the report">
          {r.messages.length === 0 && <li className={styles.muted}>No messages.</li>}
          {r.messages.map((m) => (
            <li key={m.id} className={styles.message}>
              <strong>{m.user?.username ?? 'Deleted user'}</strong>
              <span className={m.removed ? styles.muted : styles.messageText}>
                {m.removed ? 'Message removed' : m.message}
              </span>
              {r.resolution === null && !m.removed && (
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  disabled={act.isPending}
                  onClick={() => run('remove', m.id)}
                  aria-label={`Remove message ${m.id} by ${m.user?.username ?? 'a deleted user'}`}
                >
                  <Trash2 size={14} aria-hidden /> Remove
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
      {r.resolution === null ? (
        <div className={styles.actions}>
          <input
            className={styles.note}
            aria-label={`Note for report ${r.id} (optional)`}
            placeholder="Note for the log (optional)"
            maxLength={MODERATION_NOTE_MAX}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
          <button
            type="button"
            className="btn btn-ghost btn-small"
            disabled={act.isPending}
            onClick={() => run('dismiss')}
          >
            <Check size={14} aria-hidden /> Dismiss
          </button>
          {r.subjectType !== 'thread' && r.subject.exists && (
            <button
              type="button"
              className="btn btn-ghost btn-small"
              disabled={act.isPending}
              onClick={() => run('remove')}
            >
              <Trash2 size={14} aria-hidden />{' '}
              {r.subjectType === 'user' ? 'Remove picture and biography' : `Remove ${label.toLowerCase()}`}
            </button>
          )}
          {r.reportedUser && !r.reportedUser.suspended && (
            <button
              type="button"
              className="btn btn-danger btn-small"
              disabled={act.isPending}
              onClick={() => run('suspend')}
            >
              <Ban size={14} aria-hidden /> Suspend {r.reportedUser.username}
            </button>
          )}
        </div>
      ) : (
        <p className={styles.muted}>
          {ACTION_LABELS[r.resolution]} by {r.resolvedBy?.username ?? 'a deleted user'}
          {r.resolvedAt && ` · ${at(r.resolvedAt)}`}
        </p>
      )}
    </article>
  );
}

function LogView({ pageOffset, onPage }: { pageOffset: number; onPage: (offset: number) => void }) {
  const log = useQuery(moderationLogQuery(pageOffset));
  if (log.isPending) return <LoadingState label="Loading the log" />;
  if (log.isError) return <ErrorState message="The log could not be loaded." onRetry={log.refetch} />;
  if (log.data.entries.length === 0) return <EmptyState>No moderation actions yet.</EmptyState>;
  return (
    <>
      <table className={styles.log}>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Moderator</th>
            <th scope="col">Action</th>
            <th scope="col">About</th>
            <th scope="col">Note</th>
          </tr>
        </thead>
        <tbody>
          {log.data.entries.map((e: ModerationLogEntry) => (
            <tr key={e.id}>
              <td>{at(e.createdAt)}</td>
              <td>{e.moderator?.username ?? 'Deleted user'}</td>
              <td>{ACTION_LABELS[e.action]}</td>
              <td>
                {SUBJECT_LABELS[e.subjectType]} #{e.subjectId}
                {e.reportId !== null && ` (report #${e.reportId})`}
              </td>
              <td className={styles.logNote}>{e.note}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pagination
        pageOffset={pageOffset}
        pageSize={MODERATION_PAGE_SIZE}
        totalItems={log.data.totalItems}
        onChange={onPage}
      />
    </>
  );
}
