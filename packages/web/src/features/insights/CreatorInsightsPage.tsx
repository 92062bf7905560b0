import type { CatalogueInsightsResponse } from '@mesmer/shared/api/insights';
import { withThousands } from '@mesmer/shared/domain/number-format';
import { canManageRoles } from '@mesmer/shared/domain/permissions';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useCurrentUser } from '../../api/auth.ts';
import { catalogueInsightsQuery } from '../../api/insights.ts';
import { ApiError } from '../../lib/api-client.ts';
import { Card, EmptyState, ErrorState, LoadingState, usePageTitle } from '../../ui/index.ts';
import { PlaysChart, SourcesChart } from './AudienceCharts.tsx';
import { BarList } from './BarList.tsx';
import { ChartFrame } from './ChartFrame.tsx';
import { audienceTiles, FigureTiles, type Tile } from './FigureTiles.tsx';
import { change } from './figures.ts';
import styles from './insights.module.css';
import { PeriodPicker, useInsightsRange } from './PeriodPicker.tsx';

/**
 * /insights: the signed-in creator's whole catalogue; /insights/creator/{id}: anyone's, for
 * administrators. Top files, trends against the previous period, audience and sources.
 */
export default function CreatorInsightsPage() {
  const { id } = useParams();
  const { user, isLoaded } = useCurrentUser();
  const [range, setRange] = useInsightsRange();
  const creatorId = id ? Number(id) : user?.id;
  const mayView =
    !!user && (creatorId === user.id || canManageRoles({ roles: user.roles.map((r) => r.name) }));
  const insights = useQuery({
    ...catalogueInsightsQuery(creatorId ?? 0, range),
    enabled: mayView && Number.isInteger(creatorId) && (creatorId ?? 0) > 0,
  });
  usePageTitle(insights.data && id ? `Insights: ${insights.data.creator.username}` : 'Creator insights');

  if (!isLoaded) return <LoadingState label="Loading" />;
  if (!user || !mayView) {
    return (
      <Card className={styles.page}>
        <h1 className={styles.pageTitle}>Creator insights</h1>
        <EmptyState>
          {user ? (
            'Only administrators can see the insights of another creator.'
          ) : (
            <>
              <Link to="/login">Log in</Link> to see how your files are heard.
            </>
          )}
        </EmptyState>
      </Card>
    );
  }
  return (
    <Card className={styles.page}>
      <div className={styles.pageHead}>
        <h1 className={styles.pageTitle}>
          {id && insights.data ? `Insights: ${insights.data.creator.username}` : 'Creator insights'}
        </h1>
        <PeriodPicker range={range} onChange={setRange} />
      </div>
      <p className={styles.note}>
        How your files are heard, in aggregate: nobody sees who listened. Figures from fewer than 5 listeners
        are withheld. <Link to="/insights/listening">Your own listening</Link>
      </p>
      {insights.isPending ? (
        <LoadingState label="Loading insights" />
      ) : insights.isError ? (
        insights.error instanceof ApiError && insights.error.status === 404 ? (
          <EmptyState>There is no such creator.</EmptyState>
        ) : (
          <ErrorState message="The insights could not be loaded." onRetry={insights.refetch} />
        )
      ) : (
        <CatalogueView data={insights.data} />
      )}
    </Card>
  );
}

export function CatalogueView({ data }: { data: CatalogueInsightsResponse }) {
  const { audience, period } = data;
  const against = `previous ${period.days} days`;
  if (data.fileCount === 0)
    return <EmptyState>No files uploaded yet: upload one to see how it is heard.</EmptyState>;
  const tiles: Tile[] = [
    { label: 'Files', value: withThousands(data.fileCount) },
    { label: 'Plays', value: withThousands(data.plays.current), figure: data.plays, against },
    ...audienceTiles(audience, against),
  ];
  const top = data.topFiles;
  return (
    <div className={styles.sections}>
      <FigureTiles tiles={tiles} />
      <PlaysChart
        series={audience.withheld ? [] : audience.series}
        bucket={period.bucket}
        against={against}
        withheld={audience.withheld}
      />
      <div className={styles.twoColumns}>
        <ChartFrame
          title="Top files"
          emptyText={top.length === 0 ? 'No plays in this period.' : null}
          summary={
            top[0]
              ? `${top[0].name} was played most: ${withThousands(top[0].plays)} plays.`
              : 'No plays in this period.'
          }
          table={{
            columns: ['File', 'Plays', `Plays, previous ${period.days} days`, 'Change'],
            rows: top.map((f) => [
              f.name,
              f.plays,
              f.previousPlays,
              change({ current: f.plays, previous: f.previousPlays }),
            ]),
          }}
        >
          <BarList
            bars={top.map((f) => ({
              label: f.name,
              value: f.plays,
              display: `${withThousands(f.plays)} (${change({ current: f.plays, previous: f.previousPlays })})`,
            }))}
          />
        </ChartFrame>
        <SourcesChart audience={audience} />
      </div>
      {top.length > 0 && (
        <section className={styles.chart} aria-labelledby="catalogue-files">
          <h3 id="catalogue-files" className={styles.chartTitle}>
            Each file's insights
          </h3>
          <ul className={styles.linkList}>
            {top.map((f) => (
              <li key={f.id}>
                <Link to={`/file/${f.uuid}`}>{f.name}</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
