import type { FileInsightsResponse } from '@mesmer/shared/api/insights';
import { withThousands } from '@mesmer/shared/domain/number-format';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { fileInsightsQuery } from '../../api/insights.ts';
import { ErrorState, LoadingState } from '../../ui/index.ts';
import { PlaysChart, RetentionChart, SourcesChart } from './AudienceCharts.tsx';
import { BarList } from './BarList.tsx';
import { ChartFrame } from './ChartFrame.tsx';
import { audienceTiles, FigureTiles, type Tile } from './FigureTiles.tsx';
import styles from './insights.module.css';
import { PeriodPicker, useInsightsRange } from './PeriodPicker.tsx';

/**
 * The insights of one file, on its page, for its uploader and staff (the server answers 403 to
 * anyone else): plays, audience, retention, sources, tiers and the playlists holding it.
 */
export function FileInsightsPanel({ fileId }: { fileId: number }) {
  // In the file page's address (?period=90&bucket=week), so a link or a reload keeps the view.
  const [range, setRange] = useInsightsRange();
  const insights = useQuery(fileInsightsQuery(fileId, range));
  return (
    <section className={styles.panel} aria-labelledby="file-insights-title">
      <div className={styles.pageHead}>
        <h2 id="file-insights-title" className={styles.panelTitle}>
          Insights
        </h2>
        <PeriodPicker range={range} onChange={setRange} />
      </div>
      <p className={styles.note}>
        Only you and the site's staff see these figures. They never show who listened.
      </p>
      {insights.isPending ? (
        <LoadingState label="Loading insights" />
      ) : insights.isError ? (
        <ErrorState message="The insights could not be loaded." onRetry={insights.refetch} />
      ) : (
        <FileInsightsView data={insights.data} />
      )}
    </section>
  );
}

export function FileInsightsView({ data }: { data: FileInsightsResponse }) {
  const { audience, period } = data;
  const against = `previous ${period.days} days`;
  const tiles: Tile[] = [
    { label: 'Plays', value: withThousands(data.plays.current), figure: data.plays, against },
    ...audienceTiles(audience, against),
  ];
  const tiers = data.tiers ? [...data.tiers].sort((a, b) => b.rank - a.rank) : null;
  return (
    <div className={styles.sections}>
      <FigureTiles tiles={tiles} />
      <PlaysChart
        series={audience.withheld ? [] : audience.series}
        bucket={period.bucket}
        against={against}
        withheld={audience.withheld}
      />
      <RetentionChart retention={data.retention} duration={data.file.duration} />
      <div className={styles.twoColumns}>
        <SourcesChart audience={audience} />
        {tiers && (
          <ChartFrame
            title="Plays per tier"
            summary={tiers.map((t) => `${t.name}: ${withThousands(t.plays)}`).join('; ')}
            emptyText={tiers.length === 0 ? 'No plays by supporters in this period.' : null}
            table={{ columns: ['Tier', 'Plays'], rows: tiers.map((t) => [t.name, t.plays]) }}
          >
            <BarList
              bars={tiers.map((t) => ({ label: t.name, value: t.plays, display: withThousands(t.plays) }))}
            />
          </ChartFrame>
        )}
      </div>
      <section className={styles.chart} aria-labelledby="file-insights-playlists">
        <h3 id="file-insights-playlists" className={styles.chartTitle}>
          Playlists that added it
        </h3>
        {data.playlists.count === 0 ? (
          <p className={styles.empty}>No public playlist holds this file yet.</p>
        ) : (
          <>
            <p className={styles.note}>
              {data.playlists.count === 1
                ? 'One public playlist holds this file.'
                : `${withThousands(data.playlists.count)} public playlists hold this file.`}
            </p>
            <ul className={styles.linkList}>
              {data.playlists.items.map((p) => (
                <li key={p.id}>
                  <Link to={`/playlist/${p.uuid}`}>{p.name}</Link>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </div>
  );
}
