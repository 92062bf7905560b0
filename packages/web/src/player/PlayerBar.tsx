import { formatTime } from '@mesmer/shared/domain/durations';
import {
  canGoNext,
  canGoPrevious,
  LOOP_MODE_LABELS,
  LOOP_OFF,
  LOOP_TRACK,
} from '@mesmer/shared/domain/player-queue';
import {
  AlarmClock,
  Gauge,
  Keyboard,
  Moon,
  Pause,
  Play,
  Repeat,
  Repeat1,
  ScrollText,
  Shuffle,
  SkipBack,
  SkipForward,
  Vibrate,
  Volume1,
  Volume2,
  VolumeX,
} from 'lucide-react';
import { type CSSProperties, type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Modal, Switch } from '../ui/index.ts';
import { attachPlayer, playerControls } from './instance.ts';
import { KeyboardHelp } from './KeyboardHelp.tsx';
import { LoopSettings } from './LoopSettings.tsx';
import styles from './PlayerBar.module.css';
import { PlayerPopover } from './PlayerPopover.tsx';
import { SPEED_RANGE, VOLUME_RANGE } from './persistence.ts';
import { SeekBar } from './SeekBar.tsx';
import { SleepTimerSettings, useSleepTimerLabel } from './SleepTimerSettings.tsx';
import { type ShortcutAction, shortcutFor } from './shortcuts.ts';
import { currentTrack, playerStore, usePlayer } from './store.ts';
import type { PlayerServices, PlayerTrack } from './types.ts';

/** The spec's seek step for keys and device controls. */
const SEEK_STEP_SECONDS = 10;

/** The step of the volume keys. */
const VOLUME_STEP = 10;

/** The shortcuts (shortcuts.ts) while a track is in the player; `open` handles the popup ones. */
function usePlayerKeys(active: boolean, open: (what: 'sleepTimer' | 'help') => void) {
  const openRef = useRef(open);
  openRef.current = open;
  useEffect(() => {
    if (!active) return;
    const actions: Record<ShortcutAction, () => void> = {
      togglePlay: playerControls.togglePlay,
      seekBack: () => playerControls.seekBy(-SEEK_STEP_SECONDS),
      seekForward: () => playerControls.seekBy(SEEK_STEP_SECONDS),
      volumeUp: () => playerControls.setVolume(playerStoreVolume() + VOLUME_STEP),
      volumeDown: () => playerControls.setVolume(playerStoreVolume() - VOLUME_STEP),
      toggleMute: playerControls.toggleMute,
      sleepTimer: () => openRef.current('sleepTimer'),
      help: () => openRef.current('help'),
    };
    const onKeyDown = (e: KeyboardEvent) => {
      const action = shortcutFor(e);
      if (!action) return;
      e.preventDefault();
      actions[action]();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [active]);
}

const playerStoreVolume = () => playerStore.getState().volume;

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
 * player with `services`, the account, library and plan calls the app hands it. `renderScript`
 * (from the app, as the player knows no library widget) shows a track's script in the Script panel.
 */
export function PlayerBar({
  services,
  renderScript,
}: {
  services: PlayerServices;
  renderScript?: (track: PlayerTrack) => ReactNode;
}) {
  useEffect(() => attachPlayer(services), [services]);

  const track = usePlayer(currentTrack);
  const queue = usePlayer((s) => s.queue);
  const position = usePlayer((s) => s.position);
  const duration = usePlayer((s) => s.duration);
  const speed = usePlayer((s) => s.speed);
  const volume = usePlayer((s) => s.volume);
  const normalise = usePlayer((s) => s.normalise);
  const gainDb = usePlayer((s) => s.gainDb);
  const waking = usePlayer((s) => s.waking);
  const sleep = useSleepTimerLabel();
  const [sleepOpen, setSleepOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [scriptOpen, setScriptOpen] = useState(false);
  const bar = useRef<HTMLElement>(null);
  usePlayerHeight(bar, track !== null);
  usePlayerKeys(track !== null, (what) => (what === 'help' ? setHelpOpen(true) : setSleepOpen(true)));

  if (!track) return null;

  const LoopIcon = queue.loopMode === LOOP_TRACK ? Repeat1 : Repeat;
  const VolumeIcon = volume === 0 ? VolumeX : volume < 50 ? Volume1 : Volume2;

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
        <SeekBar track={track} position={position} duration={duration} />
        <span className={styles.time} title="Total time" data-testid="player-total">
          {formatTime(duration * 1000)}
        </span>
      </div>

      <div className={styles.side}>
        {(queue.playing || waking) && (
          <button
            type="button"
            className={styles.wakeButton}
            onClick={playerControls.wakeUp}
            disabled={waking}
            title="Stop every toy, fade out and play an awakener"
          >
            <AlarmClock size={16} aria-hidden />
            <span className={styles.wakeText}>{waking ? 'Waking…' : 'Wake up'}</span>
          </button>
        )}
        <PlayerPopover
          label={`Sleep timer: ${sleep.label}`}
          title="Sleep timer"
          pressed={sleep.set}
          open={sleepOpen}
          onOpenChange={setSleepOpen}
          icon={<Moon size={18} />}
        >
          <SleepTimerSettings />
        </PlayerPopover>
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
          <div className={styles.muteRow}>
            <button type="button" className="btn btn-ghost btn-small" onClick={playerControls.toggleMute}>
              {volume === 0 ? 'Unmute' : 'Mute'}
            </button>
          </div>
          <div className={styles.normalise}>
            <Switch
              label="Normalise loudness"
              checked={normalise}
              onChange={playerControls.setNormalise}
              description={
                normalise && gainDb !== null
                  ? `This track: ${gainDb > 0 ? '+' : ''}${gainDb.toFixed(1)} dB`
                  : 'Every track at about the same level'
              }
            />
          </div>
        </PlayerPopover>
        {renderScript && (
          <button
            type="button"
            className={`icon-btn ${styles.iconButton}`}
            aria-label="Script"
            aria-haspopup="dialog"
            title={track.scriptURL ? 'Script' : 'This track has no script'}
            disabled={!track.scriptURL}
            onClick={() => setScriptOpen(true)}
          >
            <ScrollText size={18} />
          </button>
        )}
        <button
          type="button"
          className={`icon-btn ${styles.iconButton} ${styles.helpButton}`}
          aria-label="Keyboard shortcuts"
          aria-keyshortcuts="?"
          onClick={() => setHelpOpen(true)}
        >
          <Keyboard size={18} />
        </button>
      </div>
      <KeyboardHelp open={helpOpen} onClose={() => setHelpOpen(false)} />
      {renderScript && (
        // Follows the current track while open.
        <Modal
          open={scriptOpen}
          title={<span className={styles.scriptTitle}>Script: {track.name}</span>}
          onClose={() => setScriptOpen(false)}
          width={720}
        >
          {track.scriptURL ? renderScript(track) : <p className="muted">This track has no script.</p>}
        </Modal>
      )}
    </section>
  );
}
