import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import styles from './insights.module.css';

/** A line's colour, one of the theme's CSS variables (styles/global.css). */
export type LineColour = '--accent' | '--info' | '--text-muted' | '--success';

export interface Line {
  label: string;
  values: readonly (number | null)[];
  colour: LineColour;
  /** Drawn dashed: the previous period beside the current one. */
  dashed?: boolean;
  /** Filled below the line. */
  fill?: boolean;
}

const WHOLE_STEPS = [
  1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000,
  1_000_000,
];

/** A date axis steps by whole days (in seconds): every point is a day or a week, never half of one. */
const DAY_STEPS = [1, 2, 7, 14, 28, 56, 91, 182, 364].map((days) => days * 86_400);

/** Reads a theme colour at draw time, so both themes draw in their own colours. */
function cssColour(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

/** A translucent version of a theme colour (a hex value) for the area below a line. */
function translucent(colour: string): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour)?.[1];
  if (!hex) return 'transparent';
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, 0.18)`;
}

/**
 * A line chart drawn by uPlot (decision 048): `x` are unix seconds for a date axis, or plain numbers
 * (a position in a track) with `xLabel` formatting them. Redrawn when the theme or the width changes.
 */
export function LineChart({
  x,
  lines,
  time = true,
  xLabel,
  yLabel,
  yMax,
  height = 220,
}: {
  x: readonly number[];
  lines: readonly Line[];
  time?: boolean;
  xLabel?: (value: number) => string;
  yLabel?: (value: number) => string;
  yMax?: number;
  height?: number;
}) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let plot: uPlot | null = null;
    let UPlot: typeof uPlot | null = null;
    let gone = false;
    const draw = () => {
      if (!UPlot) return;
      plot?.destroy();
      const text = cssColour('--text-muted');
      const grid = cssColour('--border');
      const axis = (values?: (v: number) => string): uPlot.Axis => ({
        stroke: text,
        grid: { stroke: grid, width: 1 },
        ticks: { stroke: grid, width: 1 },
        ...(values ? { values: (_u: uPlot, splits: number[]) => splits.map(values) } : {}),
      });
      plot = new UPlot(
        {
          width: Math.max(el.clientWidth, 200),
          height,
          legend: { show: false },
          cursor: { drag: { x: false, y: false } },
          scales: {
            x: { time },
            y: { range: (_u, _min, max) => [0, yMax ?? Math.max(1, max) * 1.1] },
          },
          // Counts and percentages: whole-number steps only.
          axes: [
            { ...axis(xLabel), ...(time ? { incrs: DAY_STEPS } : {}) },
            { ...axis(yLabel), size: 56, incrs: WHOLE_STEPS },
          ],
          series: [
            {},
            ...lines.map((l) => {
              const colour = cssColour(l.colour);
              return {
                label: l.label,
                stroke: colour,
                width: 2,
                dash: l.dashed ? [6, 4] : undefined,
                fill: l.fill ? translucent(colour) : undefined,
                points: { show: x.length <= 31 },
              };
            }),
          ],
        },
        [x as number[], ...lines.map((l) => l.values as (number | null)[])],
        el,
      );
    };
    // The library comes with the first chart drawn (it reads the screen when loaded), not with the page.
    import('uplot')
      .then((m) => {
        if (gone) return;
        UPlot = m.default;
        draw();
      })
      .catch(() => {
        // Not drawn: the chart's summary and table still say what it shows.
      });
    const resize = new ResizeObserver(() => plot?.setSize({ width: Math.max(el.clientWidth, 200), height }));
    resize.observe(el);
    // The theme lives on <html data-theme>: redraw in its colours when it changes.
    const theme = new MutationObserver(draw);
    theme.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      gone = true;
      resize.disconnect();
      theme.disconnect();
      plot?.destroy();
    };
  }, [x, lines, time, xLabel, yLabel, yMax, height]);

  return <div ref={box} className={styles.plot} style={{ minHeight: height }} />;
}

/** The legend of a LineChart, as text with its swatches (the chart itself draws none). */
export function LineLegend({ lines }: { lines: readonly Line[] }) {
  return (
    <ul className={styles.legend}>
      {lines.map((l) => (
        <li key={l.label}>
          <span
            className={l.dashed ? `${styles.swatch} ${styles.swatchDashed}` : styles.swatch}
            style={{ borderColor: `var(${l.colour})` }}
          />
          {l.label}
        </li>
      ))}
    </ul>
  );
}
