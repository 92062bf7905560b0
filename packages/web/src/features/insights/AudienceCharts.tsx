import type { Audience, PlaysPoint } from '@mesmer/shared/api/insights';
import {
  PLAY_SOURCE_LABELS,
  type PlaySource,
  RETENTION_BINS,
  UNKNOWN_SOURCE_LABEL,
} from '@mesmer/shared/domain/insights';
import { withThousands } from '@mesmer/shared/domain/number-format';
import { useMemo } from 'react';
import { BarList } from './BarList.tsx';
import { ChartFrame } from './ChartFrame.tsx';
import { daySeconds, percent, shortDay, trackPosition } from './figures.ts';
import { type Line, LineChart, LineLegend } from './LineChart.tsx';

const sourceLabel = (source: string) => PLAY_SOURCE_LABELS[source as PlaySource] ?? UNKNOWN_SOURCE_LABEL;

/**
 * Plays and unique listeners per day or week, the previous period's dashed beside them (its listeners
 * only when it had enough to show); `bucket` names the points in the text, `against` the previous
 * period ("previous 28 days").
 */
export function PlaysChart({
  series,
  bucket,
  against,
  withheld = false,
}: {
  series: readonly PlaysPoint[];
  bucket: 'day' | 'week';
  against: string;
  withheld?: boolean;
}) {
  const x = useMemo(() => series.map((p) => daySeconds(p.start)), [series]);
  const previousLabel = `Plays, ${against}`;
  const previousListenersLabel = `Unique listeners, ${against}`;
  const previousListenersShown = series.some((p) => p.previousListeners !== null);
  const lines = useMemo<Line[]>(
    () => [
      { label: 'Plays', values: series.map((p) => p.plays), colour: '--accent', fill: true },
      { label: 'Unique listeners', values: series.map((p) => p.listeners), colour: '--info' },
      {
        label: previousLabel,
        values: series.map((p) => p.previousPlays),
        colour: '--text-muted',
        dashed: true,
      },
      ...(previousListenersShown
        ? [
            {
              label: previousListenersLabel,
              values: series.map((p) => p.previousListeners ?? 0),
              colour: '--info' as const,
              dashed: true,
            },
          ]
        : []),
    ],
    [series, previousLabel, previousListenersLabel, previousListenersShown],
  );
  const plays = series.reduce((n, p) => n + p.plays, 0);
  const previousPlays = series.reduce((n, p) => n + p.previousPlays, 0);
  const busiest = series.reduce<PlaysPoint | null>((b, p) => (!b || p.plays > b.plays ? p : b), null);
  const unit = bucket === 'day' ? 'day' : 'week starting';
  const summary =
    plays === 0
      ? `No plays in this period (${withThousands(previousPlays)} in the ${against}).`
      : `${withThousands(plays)} plays over ${series.length} ${bucket === 'day' ? 'days' : 'weeks'}; the most on the ${unit} ${shortDay(busiest?.start ?? '')} (${withThousands(busiest?.plays ?? 0)}). ${withThousands(previousPlays)} in the ${against}.`;
  return (
    <ChartFrame
      title="Plays and unique listeners"
      summary={summary}
      withheld={withheld}
      table={{
        columns: [
          bucket === 'day' ? 'Day' : 'Week starting',
          'Plays',
          'Unique listeners',
          previousLabel,
          ...(previousListenersShown ? [previousListenersLabel] : []),
        ],
        rows: series.map((p) => [
          p.start,
          p.plays,
          p.listeners,
          p.previousPlays,
          ...(previousListenersShown ? [p.previousListeners ?? 0] : []),
        ]),
      }}
    >
      <LineChart x={x} lines={lines} />
      <LineLegend lines={lines} />
    </ChartFrame>
  );
}

/** Where plays came from, most first. */
export function SourcesChart({ audience }: { audience: Audience }) {
  const sources = audience.withheld ? [] : [...audience.sources].sort((a, b) => b.plays - a.plays);
  const total = sources.reduce((n, s) => n + s.plays, 0);
  const top = sources[0];
  return (
    <ChartFrame
      title="Where plays come from"
      withheld={audience.withheld}
      emptyText={!audience.withheld && total === 0 ? 'No plays in this period.' : null}
      summary={
        top
          ? `Most plays came from ${sourceLabel(top.source)} (${percent(top.plays / total)} of ${withThousands(total)}).`
          : ''
      }
      table={{
        columns: ['Source', 'Plays', 'Share'],
        rows: sources.map((s) => [sourceLabel(s.source), s.plays, percent(total ? s.plays / total : 0)]),
      }}
    >
      <BarList
        bars={sources.map((s) => ({
          label: sourceLabel(s.source),
          value: s.plays,
          display: `${withThousands(s.plays)} · ${percent(total ? s.plays / total : 0)}`,
        }))}
      />
    </ChartFrame>
  );
}

/**
 * The retention curve: the share of listeners still listening at each of RETENTION_BINS equal parts
 * of the track, drawn against the position in the track so drop-offs show.
 */
export function RetentionChart({
  retention,
  duration,
}: {
  retention: readonly number[] | null;
  duration: number;
}) {
  const bins = retention?.length ?? RETENTION_BINS;
  const starts = useMemo(
    () => Array.from({ length: bins }, (_, i) => Math.round((i * duration) / bins)),
    [bins, duration],
  );
  const x = useMemo(() => starts.map((ms) => ms / 1000), [starts]);
  const lines = useMemo<Line[]>(
    () => [
      {
        label: 'Still listening',
        values: (retention ?? []).map((r) => r * 100),
        colour: '--accent',
        fill: true,
      },
    ],
    [retention],
  );
  const summary = retention ? retentionSummary(retention, starts) : '';
  return (
    <ChartFrame
      title="Retention"
      withheld={retention === null}
      summary={summary}
      table={{
        columns: ['Position', 'Still listening'],
        rows: (retention ?? []).map((r, i) => [trackPosition(starts[i]), percent(r)]),
      }}
    >
      <LineChart
        x={x}
        lines={lines}
        time={false}
        yMax={100}
        xLabel={(s) => trackPosition(s * 1000)}
        yLabel={(v) => `${Math.round(v)}%`}
      />
    </ChartFrame>
  );
}

/** Where the curve starts and ends, and its steepest drop: what a reader looks for in it. */
function retentionSummary(retention: readonly number[], starts: readonly number[]): string {
  let drop = 0;
  let at = 0;
  for (let i = 1; i < retention.length; i++) {
    const d = retention[i - 1] - retention[i];
    if (d > drop) {
      drop = d;
      at = i;
    }
  }
  const first = retention[0] ?? 0;
  const last = retention[retention.length - 1] ?? 0;
  const dropText =
    drop > 0 ? ` The steepest drop, ${percent(drop)} of listeners, is at ${trackPosition(starts[at])}.` : '';
  return `${percent(first)} of plays heard the start and ${percent(last)} the end.${dropText}`;
}
