import {
  DEFAULT_INSIGHTS_PERIOD,
  INSIGHTS_BUCKETS,
  INSIGHTS_PERIODS,
  type InsightsBucket,
  type InsightsPeriod,
} from '@mesmer/shared/domain/insights';
import { useId } from 'react';
import { useSearchParams } from 'react-router';
import type { InsightsRange } from '../../api/insights.ts';
import { Tabs } from '../../ui/index.ts';
import styles from './insights.module.css';

/** The period and bucket from the address (?period=28&bucket=week); unknown values fall back to the defaults. */
export function parseInsightsRange(params: URLSearchParams): InsightsRange {
  const period = Number(params.get('period'));
  const bucket = params.get('bucket');
  return {
    period: (INSIGHTS_PERIODS as readonly number[]).includes(period)
      ? (period as InsightsPeriod)
      : DEFAULT_INSIGHTS_PERIOD,
    bucket: (INSIGHTS_BUCKETS as readonly string[]).includes(bucket ?? '')
      ? (bucket as InsightsBucket)
      : 'day',
  };
}

/** The range the address names, and a setter that keeps it there (so a link shares the view). */
export function useInsightsRange(): [InsightsRange, (next: Partial<InsightsRange>) => void] {
  const [params, setParams] = useSearchParams();
  const range = parseInsightsRange(params);
  const set = (next: Partial<InsightsRange>) =>
    setParams(
      (p) => {
        const merged = { ...parseInsightsRange(p), ...next };
        const out = new URLSearchParams(p);
        out.set('period', String(merged.period));
        out.set('bucket', merged.bucket);
        return out;
      },
      { replace: true },
    );
  return [range, set];
}

const BUCKET_TABS = [
  { id: 'day', label: 'By day' },
  { id: 'week', label: 'By week' },
] as const;

/** Last 7/28/90/365 days, and day or week points; the previous period of the same length is compared. */
export function PeriodPicker({
  range,
  onChange,
}: {
  range: InsightsRange;
  onChange: (next: Partial<InsightsRange>) => void;
}) {
  const id = useId();
  return (
    <div className={styles.picker}>
      <label htmlFor={id} className={styles.pickerLabel}>
        Period
      </label>
      <select
        id={id}
        className="select"
        value={range.period}
        onChange={(e) => onChange({ period: Number(e.target.value) as InsightsPeriod })}
      >
        {INSIGHTS_PERIODS.map((p) => (
          <option key={p} value={p}>
            Last {p} days
          </option>
        ))}
      </select>
      <Tabs
        tabs={BUCKET_TABS}
        value={range.bucket}
        onChange={(bucket) => onChange({ bucket })}
        label="Points"
      />
    </div>
  );
}
