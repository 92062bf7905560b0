import type { ListeningInsightsResponse } from '@mesmer/shared/api/insights';
import { addDays } from '@mesmer/shared/domain/insights';
import { withThousands } from '@mesmer/shared/domain/number-format';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { useCurrentUser } from '../../api/auth.ts';
import { listeningInsightsQuery } from '../../api/insights.ts';
import { Card, EmptyState, ErrorState, LoadingState, Switch, usePageTitle } from '../../ui/index.ts';
import { useInsightsOptOut } from './api.ts';
import { BarList } from './BarList.tsx';
import { CalendarHeatmap } from './CalendarHeatmap.tsx';
import { ChartFrame } from './ChartFrame.tsx';
import { FigureTiles } from './FigureTiles.tsx';
import { dayMonth, hoursMinutes, percent, shortDay } from './figures.ts';
import styles from './insights.module.css';

/** /insights/listening: "Your listening", the signed-in listener's own practice. */
export default function ListeningPage() {
  usePageTitle('Your listening');
  const { user, isLoaded } = useCurrentUser();
  const insights = useQuery({ ...listeningInsightsQuery, enabled: !!user });

  if (!isLoaded) return <LoadingState label="Loading" />;
  if (!user) {
    return (
      <Card className={styles.page}>
        <h1 className={styles.pageTitle}>Your listening</h1>
        <EmptyState>
          <span>
            <Link to="/login">Log in</Link> to see your listening.
          </span>
        </EmptyState>
      </Card>
    );
  }
  return (
    <Card className={styles.page}>
      <h1 className={styles.pageTitle}>Your listening</h1>
      {insights.isPending ? (
        <LoadingState label="Loading your listening" />
      ) : insights.isError ? (
        <ErrorState message="Your listening could not be loaded." onRetry={insights.refetch} />
      ) : (
        <ListeningView data={insights.data} />
      )}
    </Card>
  );
}

export function ListeningView({ data }: { data: ListeningInsightsResponse }) {
  const optOut = useInsightsOptOut();
  const calendar = useMemo(() => {
    const minutes = new Map(data.days.map((d) => [d.day, d.minutes]));
    const out: { date: string; minutes: number }[] = [];
    for (let day = data.from; day <= data.to; day = addDays(day, 1))
      out.push({ date: day, minutes: minutes.get(day) ?? 0 });
    return out;
  }, [data]);
  const busiest = data.days.reduce<{ day: string; minutes: number } | null>(
    (b, d) => (!b || d.minutes > b.minutes ? d : b),
    null,
  );
  const plans = data.plans;
  return (
    <div className={styles.sections}>
      <FigureTiles
        tiles={[
          { label: 'Minutes this year', value: withThousands(data.totalMinutes) },
          { label: 'Days listened', value: withThousands(data.days.length) },
          {
            label: 'Current streak',
            value: `${data.streak.current} ${data.streak.current === 1 ? 'day' : 'days'}`,
          },
          {
            label: 'Longest streak',
            value: `${data.streak.longest} ${data.streak.longest === 1 ? 'day' : 'days'}`,
          },
        ]}
      />
      <ChartFrame
        title="Minutes per day"
        headingLevel="h2"
        summary={
          busiest
            ? `${withThousands(data.totalMinutes)} minutes on ${data.days.length} of the last 365 days (${shortDay(data.from)} to ${shortDay(data.to)}); the most, ${busiest.minutes} minutes, on ${shortDay(busiest.day)}.`
            : ''
        }
        emptyText={
          data.days.length === 0
            ? 'No listening in the last year yet. Play a file to start your calendar.'
            : null
        }
        table={{ columns: ['Day', 'Minutes'], rows: data.days.map((d) => [d.day, d.minutes]) }}
      >
        <CalendarHeatmap days={calendar} />
      </ChartFrame>
      <section className={styles.chart} aria-labelledby="listening-level">
        <h2 id="listening-level" className={styles.chartTitle}>
          Level {data.level.level}
        </h2>
        <div
          className={styles.progress}
          role="progressbar"
          aria-labelledby="listening-level"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(data.level.fraction * 100)}
          aria-valuetext={`${withThousands(data.level.current)} of ${withThousands(data.level.next)} points`}
        >
          <span style={{ width: percent(data.level.fraction) }} />
        </div>
        <p className={styles.note}>
          {withThousands(data.level.current)} points ·{' '}
          {withThousands(Math.max(0, data.level.next - data.level.current))} to level {data.level.level + 1}
        </p>
      </section>
      <div className={styles.twoColumns}>
        <ChartFrame
          title="Streak history"
          headingLevel="h2"
          emptyText={data.streakHistory.length === 0 ? 'No streaks yet.' : null}
          summary={`Your longest streak is ${data.streak.longest} days; the calendar year holds ${data.streakHistory.length} runs of listening days.`}
          table={{
            columns: ['From', 'To', 'Days'],
            rows: data.streakHistory.map((r) => [r.from, r.to, r.days]),
          }}
        >
          <BarList
            bars={data.streakHistory.map((r) => ({
              label: r.from === r.to ? dayMonth(r.from) : `${dayMonth(r.from)} – ${dayMonth(r.to)}`,
              value: r.days,
              display: `${r.days} ${r.days === 1 ? 'day' : 'days'}`,
            }))}
          />
        </ChartFrame>
        <ChartFrame
          title="Most played files"
          headingLevel="h2"
          emptyText={data.topFiles.length === 0 ? 'No plays yet.' : null}
          summary={
            data.topFiles[0]
              ? `You played ${data.topFiles[0].name} most: ${data.topFiles[0].plays === 1 ? 'once' : `${data.topFiles[0].plays} times`}.`
              : ''
          }
          table={{
            columns: ['File', 'Plays', 'Listening time'],
            rows: data.topFiles.map((f) => [f.name, f.plays, hoursMinutes(f.listeningMs)]),
          }}
        >
          <BarList
            bars={data.topFiles.map((f) => ({
              label: f.name,
              value: f.plays,
              display: withThousands(f.plays),
            }))}
          />
        </ChartFrame>
        <ChartFrame
          title="Trained triggers"
          headingLevel="h2"
          emptyText={data.trainedTriggers.length === 0 ? 'No triggers trained yet.' : null}
          summary={
            data.trainedTriggers[0]
              ? `${data.trainedTriggers[0].name} was trained most, in ${data.trainedTriggers[0].plays} plays.`
              : ''
          }
          table={{ columns: ['Trigger', 'Plays'], rows: data.trainedTriggers.map((t) => [t.name, t.plays]) }}
        >
          <BarList
            bars={data.trainedTriggers.map((t) => ({
              label: t.name,
              value: t.plays,
              display: withThousands(t.plays),
            }))}
          />
        </ChartFrame>
        <section className={styles.chart} aria-labelledby="listening-plans">
          <h2 id="listening-plans" className={styles.chartTitle}>
            Training plans
          </h2>
          {plans.length === 0 ? (
            <p className={styles.empty}>
              No training plan started yet. <Link to="/plans">Browse training plans</Link>
            </p>
          ) : (
            <ul className={styles.planList}>
              {plans.map((p) => (
                <li key={p.id}>
                  <Link to={`/plan/${p.uuid}`}>{p.name}</Link>
                  <div
                    className={styles.progress}
                    role="progressbar"
                    aria-label={p.name}
                    aria-valuemin={0}
                    aria-valuemax={p.playlistCount}
                    aria-valuenow={p.done}
                    aria-valuetext={`${p.done} of ${p.playlistCount} days done`}
                  >
                    <span style={{ width: percent(p.playlistCount ? p.done / p.playlistCount : 0) }} />
                  </div>
                  <span className={styles.note}>
                    {p.done} of {p.playlistCount} days done
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <section className={styles.chart} aria-labelledby="listening-privacy">
        <h2 id="listening-privacy" className={styles.chartTitle}>
          Privacy
        </h2>
        <Switch
          label="Leave me out of creators' insights"
          description="Creators only ever see totals, never who listened. When on, your listening is not counted in them at all; your plays still count in play counts."
          checked={optOut.isPending ? optOut.variables : data.insightsOptOut}
          disabled={optOut.isPending}
          onChange={(value) => optOut.mutate(value)}
        />
      </section>
    </div>
  );
}
