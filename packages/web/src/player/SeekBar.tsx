import { formatTime } from '@mesmer/shared/domain/durations';
import type { HapticCue } from '@mesmer/shared/domain/haptic-cues';
import { useQuery } from '@tanstack/react-query';
import { type CSSProperties, type KeyboardEvent, useId, useMemo } from 'react';
import { hapticCuesQuery, waveformQuery } from '../api/files.ts';
import { waveformBars } from '../lib/waveform-bars.ts';
import { playerControls } from './instance.ts';
import styles from './PlayerBar.module.css';
import type { PlayerTrack } from './types.ts';

/** The step of the arrow keys on the seek bar. */
export const SEEK_BAR_STEP_SECONDS = 5;
/** Bars drawn at most: detail on a desktop, still distinct on a phone. */
const MAX_BARS = 120;
/** The viewBox units of one bar and the gap after it. */
const BAR_WIDTH = 2;
const BAR_PITCH = 3;
/** The waveform fills the top of the box, the cue strip its bottom (viewBox units of 100). */
const WAVE_HEIGHT = 80;
const CUE_TOP = 86;

/** The bars as one path, each centred on the waveform's middle and at least a sliver tall. */
function barsPath(bars: readonly number[]): string {
  const middle = WAVE_HEIGHT / 2;
  return bars
    .map((b, i) => {
      const h = Math.max(3, b * WAVE_HEIGHT);
      return `M${i * BAR_PITCH} ${middle - h / 2}h${BAR_WIDTH}v${h}h${-BAR_WIDTH}z`;
    })
    .join('');
}

/** Arrows move by SEEK_BAR_STEP_SECONDS, Home and End go to the ends; other keys are the slider's own. */
function onSeekKey(e: KeyboardEvent<HTMLInputElement>, position: number, max: number) {
  const to = {
    ArrowLeft: position - SEEK_BAR_STEP_SECONDS,
    ArrowDown: position - SEEK_BAR_STEP_SECONDS,
    ArrowRight: position + SEEK_BAR_STEP_SECONDS,
    ArrowUp: position + SEEK_BAR_STEP_SECONDS,
    Home: 0,
    End: max,
  }[e.key];
  if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
  e.preventDefault();
  playerControls.seek(to);
}

/**
 * The player's seek bar: the track's stored waveform (the played part in the accent colour) with
 * its haptic cues as an intensity strip under it, behind a native range input that keeps it a
 * slider for the keyboard, screen readers, clicks, drags and touch. Until the track is analysed
 * (no peaks) it is the plain bar.
 */
export function SeekBar({
  track,
  position,
  duration,
}: {
  track: PlayerTrack;
  position: number;
  duration: number;
}) {
  const clipId = `seek-played${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const waveform = useQuery(waveformQuery(track.id));
  const cues = useQuery(hapticCuesQuery(track));
  const peaks = waveform.data?.peaks;
  const bars = useMemo(() => waveformBars(peaks ?? [], MAX_BARS), [peaks]);
  const path = useMemo(() => barsPath(bars), [bars]);

  const max = Math.max(duration, position, 0);
  const value = Math.min(position, max);
  const progress = max > 0 ? value / max : 0;
  const input = (
    <input
      type="range"
      className={bars.length > 0 ? styles.waveRange : styles.range}
      style={{ '--fill': `${progress * 100}%` } as CSSProperties}
      aria-label="Seek"
      aria-valuetext={`${formatTime(position * 1000)} of ${formatTime(max * 1000)}`}
      min={0}
      max={max || 1}
      step="any"
      value={value}
      onKeyDown={(e) => onSeekKey(e, position, max)}
      onChange={(e) => playerControls.seek(Number(e.target.value))}
    />
  );
  if (bars.length === 0) return input;

  const width = bars.length * BAR_PITCH - (BAR_PITCH - BAR_WIDTH);
  return (
    <div className={styles.seekWave}>
      <svg
        viewBox={`0 0 ${width} 100`}
        preserveAspectRatio="none"
        aria-hidden
        focusable="false"
        data-testid="seek-waveform"
        data-bars={bars.length}
      >
        <clipPath id={clipId}>
          <rect x={0} y={0} width={progress * width} height={100} />
        </clipPath>
        <path d={path} className={styles.waveIdle} />
        <path d={path} className={styles.wavePlayed} clipPath={`url(#${clipId})`} />
        {max > 0 && <CueStrip cues={cues.data ?? []} durationMs={max * 1000} width={width} />}
      </svg>
      {input}
    </div>
  );
}

/** Each cue a mark along the bottom, from its start to its stop, as opaque as it is strong. */
function CueStrip({
  cues,
  durationMs,
  width,
}: {
  cues: readonly HapticCue[];
  durationMs: number;
  width: number;
}) {
  return (
    <g className={styles.cues}>
      {cues.map((cue) => {
        const x = Math.min(width, (cue.time / durationMs) * width);
        const w = Math.max(width / 200, ((cue.stopTime - cue.time) / durationMs) * width);
        return (
          <rect
            key={`${cue.time}-${cue.stopTime}`}
            data-testid="haptic-cue"
            x={x}
            y={CUE_TOP}
            width={Math.min(w, width - x)}
            height={100 - CUE_TOP}
            rx={1}
            fillOpacity={0.35 + 0.65 * Math.min(1, Math.max(0, cue.strength))}
          />
        );
      })}
    </g>
  );
}
