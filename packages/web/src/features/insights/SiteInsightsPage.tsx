import type { SiteInsightsResponse } from '@mesmer/shared/api/insights';
import { withThousands } from '@mesmer/shared/domain/number-format';
import { canManageRoles } from '@mesmer/shared/domain/permissions';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { useCurrentUser } from '../../api/auth.ts';
import { siteInsightsQuery } from '../../api/insights.ts';
import { Card, EmptyState, ErrorState, LoadingState, usePageTitle } from '../../ui/index.ts';
import { ChartFrame } from './ChartFrame.tsx';
import { FigureTiles } from './FigureTiles.tsx';
import { bytes, daySeconds, shortDay } from './figures.ts';
import styles from './insights.module.css';
import { type Line, LineChart, LineLegend } from './LineChart.tsx';
import { PeriodPicker, useInsightsRange } from './PeriodPicker.tsx';

/** /insights/site: the site dashboard, for administrators. */
export default function SiteInsightsPage() {
  usePageTitle('Site dashboard');
  const { user, isLoaded } = useCurrentUser();
  const [range, setRange] = useInsightsRange();
  const isAdmin = canManageRoles(user && { roles: user.roles.map((r) => r.name) });
  const insights = useQuery({ ...siteInsightsQuery(range), enabled: isAdmin });

  if (!isLoaded) return <LoadingState label="Loading" />;
  if (!isAdmin) {
    return (
      <Card className={styles.page}>
        <h1 className={styles.pageTitle}>Site dashboard</h1>
        <EmptyState>
          {user ? (
            'Only administrators can see the site dashboard.'
          ) : (
            <span>
              <Link to="/login">Log in</Link> to see the site dashboard.
            </span>
          )}
        </EmptyState>
      </Card>
    );
  }
  return (
    <Card className={styles.page}>
      <div className={styles.pageHead}>
        <h1 className={styles.pageTitle}>Site dashboard</h1>
        <PeriodPicker range={range} onChange={setRange} />
      </div>
      {insights.isPending ? (
        <LoadingState label="Loading the dashboard" />
      ) : insights.isError ? (
        <ErrorState message="The dashboard could not be loaded." onRetry={insights.refetch} />
      ) : (
        <SiteView data={insights.data} />
      )}
    </Card>
  );
}

type SiteKey = 'activeListeners' | 'signUps' | 'uploads' | 'messages' | 'reportsOpened' | 'reportsClosed';

const LABELS: Record<SiteKey, string> = {
  activeListeners: 'Average daily active listeners',
  signUps: 'Sign-ups',
  uploads: 'Uploads',
  messages: 'Messages',
  reportsOpened: 'Reports opened',
  reportsClosed: 'Reports closed',
};

/** One series chart of the dashboard: `keys` drawn together (same scale), with its table and CSV. */
function SiteChart({
  data,
  title,
  keys,
}: {
  data: SiteInsightsResponse;
  title: string;
  keys: readonly { key: SiteKey; colour: Line['colour'] }[];
}) {
  const { series, period } = data;
  const x = useMemo(() => series.map((d) => daySeconds(d.day)), [series]);
  const lines = useMemo<Line[]>(
    () => keys.map(({ key, colour }) => ({ label: LABELS[key], values: series.map((d) => d[key]), colour })),
    [series, keys],
  );
  const summary = keys
    .map(({ key }) => `${LABELS[key]}: ${withThousands(data.totals[key].current)}`)
    .join('; ');
  return (
    <ChartFrame
      title={title}
      summary={`${summary}, from ${shortDay(period.from)} to ${shortDay(period.to)}.`}
      table={{
        columns: [period.bucket === 'day' ? 'Day' : 'Week starting', ...keys.map(({ key }) => LABELS[key])],
        rows: series.map((d) => [d.day, ...keys.map(({ key }) => d[key])]),
      }}
    >
      <LineChart x={x} lines={lines} height={180} />
      <LineLegend lines={lines} />
    </ChartFrame>
  );
}

const LISTENERS = [{ key: 'activeListeners', colour: '--accent' }] as const;
const GROWTH = [
  { key: 'signUps', colour: '--accent' },
  { key: 'uploads', colour: '--info' },
] as const;
const MESSAGES = [{ key: 'messages', colour: '--info' }] as const;
const REPORTS = [
  { key: 'reportsOpened', colour: '--accent' },
  { key: 'reportsClosed', colour: '--success' },
] as const;

export function SiteView({ data }: { data: SiteInsightsResponse }) {
  const against = `previous ${data.period.days} days`;
  const tiles = (Object.keys(LABELS) as SiteKey[]).map((key) => ({
    label: LABELS[key],
    value: withThousands(data.totals[key].current),
    figure: data.totals[key],
    against,
  }));
  return (
    <div className={styles.sections}>
      <FigureTiles
        tiles={[
          ...tiles,
          { label: 'Open reports', value: withThousands(data.openReports) },
          { label: 'Storage used', value: bytes(data.storageBytes) },
          { label: 'Files', value: withThousands(data.fileCount) },
          { label: 'Server errors since start', value: withThousands(data.errors) },
        ]}
      />
      <SiteChart
        data={data}
        title={
          data.period.bucket === 'day' ? 'Daily active listeners' : 'Average daily active listeners by week'
        }
        keys={LISTENERS}
      />
      <div className={styles.twoColumns}>
        <SiteChart data={data} title="Sign-ups and uploads" keys={GROWTH} />
        <SiteChart data={data} title="Messages" keys={MESSAGES} />
        <SiteChart data={data} title="Reports opened and closed" keys={REPORTS} />
      </div>
    </div>
  );
}
