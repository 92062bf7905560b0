import { formatTime } from '@mesmer/shared/domain/durations';
import {
  canGoNext,
  canGoPrevious,
  LOOP_MODE_LABELS,
  LOOP_OFF,
  LOOP_TRACK,
} from '@mesmer/shared/domain/player-queue';
import {
  Gauge,
  Pause,
  Play,
  Repeat,
  Repeat1,
  Shuffle,
  SkipBack,
  SkipForward,
  Vibrate,
  Volume1,
  Volume2,
  VolumeX,
} from 'lucide-react';
import { type CSSProperties, useEffect, useLayoutEffect, useRef } from 'react';
import { Link } from 'react-router';
import { attachPlayer, playerControls } from './instance.ts';
import { LoopSettings } from './LoopSettings.tsx';
import styles from './PlayerBar.module.css';
import { PlayerPopover } from './PlayerPopover.tsx';
import { SPEED_RANGE, VOLUME_RANGE } from './persistence.ts';
import { currentTrack, usePlayer } from './store.ts';
import type { PlayerServices } from './types.ts';

/** The spec's seek step for keys and device controls. */
const SEEK_STEP_SECONDS = 10;

/** Keys typed into a field (or activating a control) are not player shortcuts. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}

/** Space plays/pauses, ArrowLeft/ArrowRight seek 10 s, unless focus is in a form field. */
function usePlayerKeys(active: boolean) {
  useEffect(() => {
    if (!active) return;
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTypingTarget(e.target)) return;
      const target = e.target instanceof HTMLElement ? e.target : null;
      // Keys inside a popup belong to it; Space on a button or link activates that control.
      if (target?.closest('[role="dialog"], [aria-modal="true"]')) return;
      if (e.key === ' ' && !target?.closest('button, a, summary')) {
        e.preventDefault();
        playerControls.togglePlay();
      } else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        e.preventDefault();
        playerControls.seekBy(e.key === 'ArrowLeft' ? -SEEK_STEP_SECONDS : SEEK_STEP_SECONDS);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [active]);
}

/** Publishes the bar's height as --player-h so pages and toasts leave room for it. */
function usePlayerHeight(bar: React.RefObject<HTMLElement | null>, shown: boolean) {
  useLayoutEffect(() => {
    const root = document.documentElement;
    const el = bar.current;
    if (!shown || !el) {
      root.style.setProperty('--player-h', '0px');
      return;
    }
    const update = () => root.style.setProperty('--player-h', `${el.offsetHeight}px`);
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.setProperty('--player-h', '0px');
    };
  }, [bar, shown]);
}

/**
 * The audio player bar, fixed at the bottom whenever a track is selected. It attaches the
 * player with `services`, the account, library and plan calls the app hands it.
 */
export function PlayerBar({ services }: { services: PlayerServices }) {
  useEffect(() => attachPlayer(services), [services]);

  const track = usePlayer(currentTrack);
  const queue = usePlayer((s) => s.queue);
  const position = usePlayer((s) => s.position);
  const duration = usePlayer((s) => s.duration);
  const speed = usePlayer((s) => s.speed);
  const volume = usePlayer((s) => s.volume);
  const bar = useRef<HTMLElement>(null);
  usePlayerHeight(bar, track !== null);
  usePlayerKeys(track !== null);

  if (!track) return null;

  const LoopIcon = queue.loopMode === LOOP_TRACK ? Repeat1 : Repeat;
  const VolumeIcon = volume === 0 ? VolumeX : volume < 50 ? Volume1 : Volume2;
  const seekMax = Math.max(duration, position, 0);
  const fill = seekMax > 0 ? (position / seekMax) * 100 : 0;

  return (
    <section ref={bar} className={styles.bar} aria-label="Audio player">
      <div className={styles.info}>
        <Link to={`/file/${track.uuid}`} className={styles.name} title={track.name}>
          {track.name}
        </Link>
        <span className={styles.byline}>
          <Link to={`/user/${encodeURIComponent(track.author.username)}`} className={styles.author}>
            {track.author.username}
          </Link>
          {track.hasHaptics && (
            <span className={styles.hapticsMark} title="Haptics">
              <Vibrate size={14} aria-label="Haptics" />
            </span>
          )}
        </span>
      </div>

      <div className={styles.controls}>
        <button
          type="button"
          className={`icon-btn ${styles.iconButton}`}
          aria-label="Shuffle"
          aria-pressed={queue.shuffle}
          onClick={() => playerControls.setShuffle(!queue.shuffle)}
        >
          <Shuffle size={18} />
        </button>
        <button
          type="button"
          className={`icon-btn ${styles.iconButton}`}
          aria-label="Previous track"
          disabled={!canGoPrevious(queue)}
          onClick={playerControls.previous}
        >
          <SkipBack size={20} />
        </button>
        <button
          type="button"
          className={styles.playButton}
          aria-label={queue.playing ? 'Pause' : 'Play'}
          onClick={playerControls.togglePlay}
        >
          {queue.playing ? <Pause size={22} /> : <Play size={22} className={styles.playIcon} />}
        </button>
        <button
          type="button"
          className={`icon-btn ${styles.iconButton}`}
          aria-label="Next track"
          disabled={!canGoNext(queue)}
          onClick={playerControls.next}
        >
          <SkipForward size={20} />
        </button>
        <PlayerPopover
          label={`Loop: ${LOOP_MODE_LABELS[queue.loopMode]}`}
          title="Loop"
          pressed={queue.loopMode !== LOOP_OFF}
          icon={<LoopIcon size={18} />}
        >
          <LoopSettings />
        </PlayerPopover>
      </div>

      <div className={styles.seek}>
        <span className={styles.time} title="Elapsed time" data-testid="player-elapsed">
          {formatTime(position * 1000)}
        </span>
        <input
          type="range"
          className={styles.range}
          style={{ '--fill': `${fill}%` } as CSSProperties}
          aria-label="Seek"
          aria-valuetext={`${formatTime(position * 1000)} of ${formatTime(seekMax * 1000)}`}
          min={0}
          max={seekMax || 1}
          step="any"
          value={Math.min(position, seekMax)}
          onChange={(e) => playerControls.seek(Number(e.target.value))}
        />
        <span className={styles.time} title="Total time" data-testid="player-total">
          {formatTime(duration * 1000)}
        </span>
      </div>

      <div className={styles.side}>
        <PlayerPopover
          label={`Speed: ${speed}%`}
          title="Speed"
          icon={
            <span className={styles.speedLabel}>
              <Gauge size={16} aria-hidden />
              {speed}%
            </span>
          }
        >
          <div className={styles.sliderRow}>
            <input
              type="range"
              className={styles.range}
              style={
                {
                  '--fill': `${((speed - SPEED_RANGE.min) / (SPEED_RANGE.max - SPEED_RANGE.min)) * 100}%`,
                } as CSSProperties
              }
              aria-label="Speed"
              aria-valuetext={`${speed}%`}
              min={SPEED_RANGE.min}
              max={SPEED_RANGE.max}
              step={SPEED_RANGE.step}
              value={speed}
              onChange={(e) => playerControls.setSpeed(Number(e.target.value))}
            />
            <output className={styles.sliderValue}>{speed}%</output>
          </div>
          <button
            type="button"
            className="btn btn-ghost btn-small"
            disabled={speed === SPEED_RANGE.default}
            onClick={() => playerControls.setSpeed(SPEED_RANGE.default)}
          >
            Normal speed
          </button>
        </PlayerPopover>
        <PlayerPopover label={`Volume: ${volume}`} title="Volume" icon={<VolumeIcon size={18} />}>
          <div className={styles.sliderRow}>
            <input
              type="range"
              className={styles.range}
              style={{ '--fill': `${volume}%` } as CSSProperties}
              aria-label="Volume"
              min={VOLUME_RANGE.min}
              max={VOLUME_RANGE.max}
              step={1}
              value={volume}
              onChange={(e) => playerControls.setVolume(Number(e.target.value))}
            />
            <output className={styles.sliderValue}>{volume}</output>
          </div>
        </PlayerPopover>
      </div>
    </section>
  );
}
