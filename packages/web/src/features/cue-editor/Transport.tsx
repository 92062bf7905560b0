import { Circle, Pause, Play, Square } from 'lucide-react';
import styles from './cue-editor.module.css';
import { IntensityMeter } from './IntensityMeter.tsx';

/**
 * Preview and recording controls: play from the cursor, record, a press-and-hold button that lays
 * a cue (the R key's twin for phones), the strength of new cues, the intensity meter and the time.
 */
export function Transport({
  playing,
  recording,
  onPlay,
  onRecord,
  onHoldPress,
  onHoldRelease,
  strength,
  onStrength,
  level,
  maxLevel,
  timeText,
}: {
  playing: boolean;
  recording: boolean;
  /** Starts or pauses the preview. */
  onPlay: () => void;
  /** Arms or stops the recording. */
  onRecord: () => void;
  onHoldPress: () => void;
  onHoldRelease: () => void;
  strength: number;
  onStrength: (strength: number) => void;
  level: () => number;
  maxLevel: number;
  timeText: string;
}) {
  return (
    <div className={styles.transport}>
      <button type="button" className="btn btn-primary btn-small" onClick={onPlay}>
        {playing ? <Pause size={16} aria-hidden /> : <Play size={16} aria-hidden />}{' '}
        {playing ? 'Pause' : 'Preview from cursor'}
      </button>
      <button
        type="button"
        className={`btn btn-small ${recording ? 'btn-danger' : 'btn-ghost'}`}
        aria-pressed={recording}
        onClick={onRecord}
      >
        {recording ? <Square size={14} aria-hidden /> : <Circle size={14} aria-hidden />}{' '}
        {recording ? 'Stop recording' : 'Record'}
      </button>
      <button
        type="button"
        className={`btn btn-ghost btn-small ${styles.hold}`}
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture?.(e.pointerId);
          onHoldPress();
        }}
        onPointerUp={onHoldRelease}
        onPointerCancel={onHoldRelease}
        onKeyDown={(e) => {
          if ((e.key === ' ' || e.key === 'Enter') && !e.repeat) {
            e.preventDefault();
            e.stopPropagation();
            onHoldPress();
          }
        }}
        onKeyUp={(e) => {
          if (e.key === ' ' || e.key === 'Enter') {
            e.preventDefault();
            onHoldRelease();
          }
        }}
        onContextMenu={(e) => e.preventDefault()}
      >
        Hold to lay a cue
      </button>
      <label className={styles.strength}>
        <span>New cue strength {Math.round(strength * 100)}%</span>
        <input
          type="range"
          min={0}
          max={100}
          step={5}
          value={Math.round(strength * 100)}
          onChange={(e) => onStrength(Number(e.target.value) / 100)}
        />
      </label>
      <IntensityMeter level={level} max={maxLevel} active={playing} />
      <span className={styles.time}>
        {playing ? 'Playing' : 'Cursor'} {timeText}
      </span>
    </div>
  );
}
