import { Download, Table2 } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { type CsvCell, csvFileName, downloadCsv, toCsv } from './csv.ts';
import styles from './insights.module.css';

/** What a chart shows, as a table: its accessible alternative and its CSV. */
export interface ChartTable {
  columns: readonly string[];
  rows: readonly (readonly CsvCell[])[];
}

/** The text shown instead of a figure with fewer than the threshold's distinct listeners. */
export const WITHHELD_TEXT = 'Shown once at least 5 people have listened.';

/**
 * One chart with its title, a text summary the focused figure reads out, its data as a table
 * (visually hidden until asked for, always there for screen readers) and a "Download CSV" of that
 * table. A withheld figure shows WITHHELD_TEXT instead; an empty one its `emptyText`.
 */
export function ChartFrame({
  title,
  summary,
  table,
  withheld = false,
  emptyText,
  headingLevel: Heading = 'h3',
  children,
}: {
  title: string;
  summary: string;
  table: ChartTable;
  withheld?: boolean;
  /** Set when there is nothing to draw: shown instead of the chart. */
  emptyText?: string | null;
  headingLevel?: 'h2' | 'h3';
  children: ReactNode;
}) {
  const id = useId();
  const [showTable, setShowTable] = useState(false);
  const titleId = `${id}-title`;
  const tableId = `${id}-table`;
  const body = withheld ? (
    <p className={styles.withheld}>{WITHHELD_TEXT}</p>
  ) : emptyText ? (
    <p className={styles.empty}>{emptyText}</p>
  ) : (
    <>
      <figure
        className={styles.figure}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a chart is focusable so its description is read out
        tabIndex={0}
        aria-labelledby={titleId}
        aria-describedby={`${id}-summary`}
      >
        <div aria-hidden="true">{children}</div>
        <figcaption id={`${id}-summary`} className={styles.summary}>
          {summary}
        </figcaption>
      </figure>
      <div id={tableId} className={showTable ? styles.tableWrap : 'visually-hidden'}>
        <table className={styles.table}>
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              {table.columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, r) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their place
              <tr key={r}>
                {row.map((cell, c) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells have no identity beyond their place
                  <td key={c}>{cell ?? '–'}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
  const hasData = !withheld && !emptyText;
  return (
    <section className={styles.chart} aria-labelledby={titleId}>
      <div className={styles.chartHead}>
        <Heading id={titleId} className={styles.chartTitle}>
          {title}
        </Heading>
        {hasData && (
          <div className={styles.chartActions}>
            <button
              type="button"
              className="btn btn-ghost btn-small"
              aria-expanded={showTable}
              aria-controls={tableId}
              onClick={() => setShowTable((s) => !s)}
            >
              <Table2 size={15} aria-hidden /> {showTable ? 'Hide table' : 'Show table'}
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-small"
              aria-label={`Download CSV: ${title}`}
              onClick={() => downloadCsv(csvFileName(title), toCsv(table.columns, table.rows))}
            >
              <Download size={15} aria-hidden /> Download CSV
            </button>
          </div>
        )}
      </div>
      {body}
    </section>
  );
}
