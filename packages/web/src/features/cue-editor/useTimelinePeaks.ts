import { useQueries } from '@tanstack/react-query';
import { useMemo, useRef } from 'react';
import { peaksQuery } from './api.ts';
import { peakTimes } from './model/snapping.ts';
import type { TimelineView } from './model/timeline.ts';
import { type PeakWindow, peakWindowsFor } from './timeline-view.ts';

/**
 * The waveform at the view's resolution (server peak windows, the whole file coarse first so a
 * zoomed view is never blank while its peaks load) and the peak times snapping can aim at.
 */
export function useTimelinePeaks(fileId: number, view: TimelineView, durationMs: number) {
  const windows = useMemo(
    () => [
      { fromMs: 0, toMs: durationMs, msPerPeak: Math.max(1, Math.ceil(durationMs / 1500)) },
      ...peakWindowsFor(view, durationMs),
    ],
    [view, durationMs],
  );
  const answers = useQueries({ queries: windows.map((w) => peaksQuery(fileId, w)) });
  const fresh: PeakWindow[] = [];
  for (const answer of answers) {
    if (answer.data && answer.data.peaks.length > 0) fresh.push(answer.data);
  }
  // The same list while the answers are the same: the timeline redraws its waveform only when it changes.
  const kept = useRef(fresh);
  const same = fresh.length === kept.current.length && fresh.every((w, k) => w === kept.current[k]);
  const peaks = same ? kept.current : fresh;
  kept.current = peaks;
  const finest = peaks.length > 1 ? peaks.slice(1) : peaks;
  const finestKey = finest.map((w) => `${w.fromMs}/${w.msPerPeak}/${w.peaks.length}`).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key names the windows' content
  const snapPeaks = useMemo(
    () => finest.flatMap((w) => peakTimes(w.peaks, w.msPerPeak, { fromMs: w.fromMs })).sort((a, b) => a - b),
    [finestKey],
  );
  return { peaks, snapPeaks };
}
