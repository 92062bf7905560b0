/**
 * The sleep timer: after 15-60 minutes, or at the end of the current track, the audio fades
 * out over SLEEP_FADE_MS and playback pauses. The fade is a level (0-1) the engine multiplies
 * into the output; this only decides it, on a tick while a timer is set.
 */

/** The fade-out before the timer pauses playback. */
export const SLEEP_FADE_MS = 10_000;
/** How often the fade level is updated. */
export const SLEEP_TICK_MS = 200;
export const SLEEP_TIMER_MINUTES = [15, 30, 45, 60] as const;

/** What the listener chose: minutes from now, or the end of the current track. */
export type SleepChoice = number | 'track';

export type SleepTimerState = { kind: 'minutes'; minutes: number; endsAt: number } | { kind: 'track' };

export function createSleepTimer(deps: {
  now: () => number;
  /** Real-time ms left in the current track (its rest at the playback rate), or null when unknown. */
  trackLeftMs: () => number | null;
  /** The output level the fade asks for (1 when not fading). */
  setFade: (level: number) => void;
  /** The timer ran out: pause playback. */
  sleep: () => void;
  /** The timer was set, ran out or was cancelled. */
  changed: (timer: SleepTimerState | null) => void;
}) {
  let timer: SleepTimerState | null = null;
  let ticker: ReturnType<typeof setInterval> | null = null;
  let fade = 1;

  function setFade(level: number) {
    const next = Math.min(1, Math.max(0, level));
    if (next === fade) return;
    fade = next;
    deps.setFade(next);
  }

  function clear() {
    if (ticker !== null) clearInterval(ticker);
    ticker = null;
    timer = null;
    deps.changed(null);
  }

  function tick() {
    if (!timer) return;
    if (timer.kind === 'minutes') {
      const left = timer.endsAt - deps.now();
      if (left <= 0) {
        deps.sleep();
        setFade(1);
        clear();
        return;
      }
      setFade(left / SLEEP_FADE_MS);
    } else {
      const left = deps.trackLeftMs();
      setFade(left === null ? 1 : left / SLEEP_FADE_MS);
    }
  }

  return {
    /** Sets the timer (replacing one already set), or cancels it with null. */
    set(choice: SleepChoice | null) {
      if (ticker !== null) clearInterval(ticker);
      ticker = null;
      if (choice === null) {
        setFade(1);
        clear();
        return;
      }
      timer =
        choice === 'track'
          ? { kind: 'track' }
          : { kind: 'minutes', minutes: choice, endsAt: deps.now() + choice * 60_000 };
      deps.changed(timer);
      setFade(1);
      tick();
      ticker = setInterval(tick, SLEEP_TICK_MS);
    },
    /** The playhead moved (seek, time update): an end-of-track fade follows it. */
    update: tick,
    /**
     * The current track ended. True when the timer waits for this: it is done, and playback
     * must stop rather than move on.
     */
    trackEnded(): boolean {
      if (timer?.kind !== 'track') return false;
      clear();
      return true;
    },
    /** Once playback has stopped on an end-of-track timer, the level goes back to full. */
    resetFade: () => setFade(1),
    current: () => timer,
  };
}
