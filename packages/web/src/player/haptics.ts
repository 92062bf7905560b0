/**
 * Drives a haptic toy from the current track's cue file: every 10 ms while playing, the
 * scheduler (shared/domain/haptic-cues.ts) says whether the level changes, and the change
 * goes to the device. Device drivers (Lovense, Buttplug) implement HapticDevice.
 */
import {
  HAPTICS_POLL_MS,
  type HapticCue,
  type HapticScheduleState,
  type HapticSettings,
  initialHapticState,
  resetHapticCursor,
  stepHaptics,
  stopHaptics,
} from '@mesmer/shared/domain/haptic-cues';
import { fetchHapticCues } from '../api/files.ts';

export interface HapticDevice {
  /** Level 1 to 20; keeps vibrating until changed or stopped. */
  vibrate(level: number): void;
  stop(): void;
}

/** No toy connected: nothing happens, and no cue files are fetched. */
export const noHapticDevice: HapticDevice = {
  vibrate() {},
  stop() {},
};

export function createHapticsDriver(opts: {
  /** The playback time in ms. */
  currentTimeMs: () => number;
  settings: () => HapticSettings;
  fetchCues?: (url: string) => Promise<HapticCue[]>;
}) {
  const fetchCues = opts.fetchCues ?? fetchHapticCues;
  let device = noHapticDevice;
  let cues: HapticCue[] = [];
  let cuesUrl: string | null = null;
  let state: HapticScheduleState = initialHapticState();
  let timer: ReturnType<typeof setInterval> | null = null;
  let wantPlaying = false;
  /** Wake-up: the toy stays still until the listener plays something again. */
  let silenced = false;

  function send(step: { state: HapticScheduleState; command: ReturnType<typeof stepHaptics>['command'] }) {
    state = step.state;
    if (step.command?.type === 'vibrate') device.vibrate(step.command.level);
    else if (step.command?.type === 'stop') device.stop();
  }

  function halt() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    send(stopHaptics(state));
  }

  function run() {
    if (!wantPlaying || silenced || cues.length === 0 || device === noHapticDevice || timer !== null) return;
    timer = setInterval(
      () => send(stepHaptics(state, cues, opts.currentTimeMs(), opts.settings())),
      HAPTICS_POLL_MS,
    );
  }

  async function loadCues(url: string | null) {
    if (url === cuesUrl) return;
    halt();
    cuesUrl = url;
    cues = [];
    state = initialHapticState();
    if (!url || device === noHapticDevice) return;
    const loaded = await fetchCues(url).catch(() => []);
    if (cuesUrl !== url) return;
    cues = loaded;
    run();
  }

  return {
    /** Whether a toy is connected (insights count plays with a toy). */
    connected: () => device !== noHapticDevice,

    setDevice(next: HapticDevice | null) {
      halt();
      device = next ?? noHapticDevice;
      const url = cuesUrl;
      cuesUrl = null;
      void loadCues(url);
    },
    /** A new track: its cue file URL, or null when it has none. */
    setTrack(hapticsUrl: string | null) {
      return loadCues(hapticsUrl);
    },
    play() {
      wantPlaying = true;
      run();
    },
    pause() {
      wantPlaying = false;
      halt();
    },
    /** Stops the toy at once (wake-up), and keeps it still until `release`. */
    silence() {
      silenced = true;
      if (timer !== null) clearInterval(timer);
      timer = null;
      state = stopHaptics(state).state;
      // Always told, even when the scheduler believes the toy is still: this is the safety stop.
      device.stop();
    },
    /** The listener plays something again: cues drive the toy again. */
    release() {
      if (!silenced) return;
      silenced = false;
      run();
    },
    /** Seeking resets the cue position. */
    seeked() {
      state = resetHapticCursor(state);
    },
  };
}
export type HapticsDriver = ReturnType<typeof createHapticsDriver>;
