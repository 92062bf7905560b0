import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { waveformQuery } from '../../../api/files.ts';
import { waveformBars } from '../../../lib/waveform-bars.ts';
import { usePlaybackProgress } from '../../../player/index.ts';
import styles from './edit.module.css';

/** The most bars drawn: enough for detail on a desktop, still readable on a phone. */
const MAX_BARS = 160;

/** 'Loudness: -14.2 LUFS' (integrated loudness, one decimal). */
export function loudnessText(lufs: number): string {
  return `Loudness: ${lufs.toFixed(1)} LUFS`;
}

/**
 * The file's waveform as bars; with `progress` (0-1, the file is the current track) the played
 * part is drawn in the accent colour. An image for screen readers, labelled with how much is played.
 */
export function Waveform({ peaks, progress }: { peaks: readonly number[]; progress: number | null }) {
  const clipId = `played${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const bars = waveformBars(peaks, MAX_BARS);
  if (bars.length === 0) return null;
  const width = bars.length;
  // Each bar is a vertical line centred on the middle, at least a sliver tall so silence still shows.
  const path = bars
    .map((b, i) => {
      const h = Math.max(2, b * 96) / 2;
      return `M${i + 0.5} ${50 - h}V${50 + h}`;
    })
    .join('');
  const played = progress === null ? null : Math.round(progress * 100);
  return (
    <div
      className={styles.waveform}
      role="img"
      aria-label={played === null ? 'Waveform' : `Waveform, ${played}% played`}
    >
      <svg viewBox={`0 0 ${width} 100`} preserveAspectRatio="none" aria-hidden focusable="false">
        <path d={path} className={styles.waveformBars} />
        {progress !== null && (
          <>
            <clipPath id={clipId}>
              <rect x={0} y={0} width={progress * width} height={100} />
            </clipPath>
            <path
              d={path}
              className={styles.waveformPlayed}
              clipPath={`url(#${clipId})`}
              data-testid="waveform-played"
            />
          </>
        )}
      </svg>
    </div>
  );
}

/**
 * The file page's waveform and loudness, when the server has analysed the file; the part played
 * shows while the file is the player's current track.
 */
export function FileWaveform({ fileId }: { fileId: number }) {
  const waveform = useQuery(waveformQuery(fileId));
  const progress = usePlaybackProgress(fileId);
  // Its room is kept while it loads, so the details below do not move when it comes.
  if (waveform.isPending) {
    return (
      <>
        <div className={styles.waveform} aria-hidden />
        <p className={styles.loudness} aria-hidden>
          &nbsp;
        </p>
      </>
    );
  }
  if (!waveform.data) return null;
  const { peaks, loudness } = waveform.data;
  return (
    <>
      <Waveform peaks={peaks} progress={progress} />
      {loudness !== null && <p className={styles.loudness}>{loudnessText(loudness)}</p>}
    </>
  );
}
