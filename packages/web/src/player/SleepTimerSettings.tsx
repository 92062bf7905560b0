import { formatTime } from '@mesmer/shared/domain/durations';
import { useEffect, useId, useState } from 'react';
import { playerControls } from './instance.ts';
import styles from './PlayerBar.module.css';
import { SLEEP_TIMER_MINUTES, type SleepTimerState } from './sleep-timer.ts';
import { usePlayer } from './store.ts';

/** Re-renders every second while `active`; answers the time now. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/** What the sleep timer button says about the timer. */
export function useSleepTimerLabel(): { label: string; set: boolean } {
  const timer = usePlayer((s) => s.sleepTimer);
  const now = useNow(timer?.kind === 'minutes');
  return { label: sleepTimerStatus(timer, now), set: timer !== null };
}

export function sleepTimerStatus(timer: SleepTimerState | null, now: number): string {
  if (!timer) return 'Off';
  if (timer.kind === 'track') return 'At the end of this track';
  // Counted down in whole seconds, rounded up: 15:00 when just set, 00:01 in the last second.
  return `${formatTime(Math.ceil(Math.max(0, timer.endsAt - now) / 1000) * 1000)} left`;
}

type Choice = 'off' | 'track' | (typeof SLEEP_TIMER_MINUTES)[number];

/** The sleep-timer popup's content: off, 15-60 minutes or the end of the track. */
export function SleepTimerSettings() {
  const timer = usePlayer((s) => s.sleepTimer);
  const { label } = useSleepTimerLabel();
  const name = useId();
  const current: Choice | number = timer === null ? 'off' : timer.kind === 'track' ? 'track' : timer.minutes;
  const choices: { value: Choice; label: string }[] = [
    { value: 'off', label: 'Off' },
    ...SLEEP_TIMER_MINUTES.map((m) => ({ value: m, label: `${m} minutes` })),
    { value: 'track', label: 'End of track' },
  ];
  return (
    <div className={styles.loopSettings}>
      <fieldset className={styles.loopModes}>
        <legend className="visually-hidden">Stop playing after</legend>
        {choices.map((choice) => (
          <label key={choice.value} className={styles.radio}>
            <input
              type="radio"
              name={name}
              checked={current === choice.value}
              onChange={() => playerControls.setSleepTimer(choice.value === 'off' ? null : choice.value)}
            />
            {choice.label}
          </label>
        ))}
      </fieldset>
      <p className={`muted ${styles.loopStatus}`} data-testid="sleep-timer-status">
        {timer ? `Fades out and pauses · ${label}` : 'Fades out over 10 seconds, then pauses.'}
      </p>
    </div>
  );
}
