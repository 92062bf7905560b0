import { withThousands } from '@mesmer/shared/domain/number-format';
import {
  LOOP_MODE_LABELS,
  LOOP_MODES,
  LOOP_OFF,
  LOOP_TRACK,
  MAX_LOOP_COUNT,
  parseLoopCount,
} from '@mesmer/shared/domain/player-queue';
import { useEffect, useId, useState } from 'react';
import { playerControls } from './instance.ts';
import styles from './PlayerBar.module.css';
import { usePlayer } from './store.ts';

/** The loop popup's content: mode, how many times, and how many repeats are done. */
export function LoopSettings() {
  const loopMode = usePlayer((s) => s.queue.loopMode);
  const loopCount = usePlayer((s) => s.queue.loopCount);
  const currentLoop = usePlayer((s) => s.queue.currentLoop);
  const [countInput, setCountInput] = useState(loopCount === null ? '' : String(loopCount));
  useEffect(() => setCountInput(loopCount === null ? '' : String(loopCount)), [loopCount]);
  const countId = useId();
  const name = useId();

  const commitCount = () => {
    const count = parseLoopCount(countInput);
    playerControls.setLoopCount(count);
    setCountInput(count === null ? '' : String(count));
  };

  return (
    <div className={styles.loopSettings}>
      <fieldset className={styles.loopModes}>
        <legend className="visually-hidden">Loop mode</legend>
        {LOOP_MODES.map((mode) => (
          <label key={mode} className={styles.radio}>
            <input
              type="radio"
              name={name}
              checked={loopMode === mode}
              onChange={() => playerControls.setLoopMode(mode)}
            />
            {LOOP_MODE_LABELS[mode]}
          </label>
        ))}
      </fieldset>
      <div className={styles.loopCount}>
        <label htmlFor={countId}>Loop count</label>
        <input
          id={countId}
          className={`input ${styles.countInput}`}
          inputMode="numeric"
          placeholder="Unlimited"
          title={`1 to ${withThousands(MAX_LOOP_COUNT)}; empty for unlimited`}
          value={countInput}
          onChange={(e) => setCountInput(e.target.value)}
          onBlur={commitCount}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commitCount();
          }}
        />
      </div>
      {loopMode !== LOOP_OFF && (
        <p className={`muted ${styles.loopStatus}`} aria-live="polite">
          {loopMode === LOOP_TRACK ? 'Track' : 'Playlist'} repeated {currentLoop} of{' '}
          {loopCount === null ? 'unlimited' : loopCount} {loopCount === 1 ? 'time' : 'times'}
        </p>
      )}
    </div>
  );
}
