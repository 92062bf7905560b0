import type { AudioFile } from '@mesmer/shared/api/files';
import {
  type HapticCue,
  type HapticScheduleState,
  initialHapticState,
  MAX_DEVICE_LEVEL,
  stepHaptics,
} from '@mesmer/shared/domain/haptic-cues';
import { MAX_VIBRATION_RANGE, VIBRATION_OFFSET_RANGE } from '@mesmer/shared/domain/haptics-settings';
import { useCallback, useEffect, useRef } from 'react';
import { useCurrentUser } from '../../api/auth.ts';
import { keepLocalCues, releaseLocalCues } from '../../api/local-cues.ts';
import { pausePlayer, play, playheadMs, seekPlayerWhenReady, usePlayingFile } from '../../player/index.ts';

/**
 * Preview and recording playback through the app's player: the file plays in the player bar with
 * the DRAFT cues as its cue file (a page-local address, api/local-cues.ts), so the player's own haptics driver and scheduler
 * drive the connected toy (Lovense or Intiface) exactly as in playback, and the wake-up button
 * stops it as everywhere. `level()` is the scheduler's level now (0-20), for the visual meter.
 */
export function useCuePreview(file: AudioFile) {
  const playing = usePlayingFile(file.id);
  const { user } = useCurrentUser();
  const settings = useRef({ offsetMs: 0, maxVibration: 100 });
  settings.current = {
    offsetMs: user?.lovenseSettings.vibrationOffset ?? VIBRATION_OFFSET_RANGE.default,
    maxVibration: user?.lovenseSettings.maxVibration ?? MAX_VIBRATION_RANGE.default,
  };
  const previewed = useRef<readonly HapticCue[]>([]);
  const url = useRef<string | null>(null);
  const cancelSeek = useRef<() => void>(() => {});
  const schedule = useRef<HapticScheduleState>(initialHapticState());

  useEffect(
    () => () => {
      cancelSeek.current();
      if (url.current) releaseLocalCues(url.current);
    },
    [],
  );

  /** Plays from `fromMs` with these cues driving the toy. */
  const start = useCallback(
    (cues: readonly HapticCue[], fromMs: number) => {
      const previous = url.current;
      url.current = keepLocalCues(cues);
      previewed.current = cues;
      schedule.current = initialHapticState();
      play({ files: [{ ...file, hapticsURL: url.current }], startIndex: 0 });
      cancelSeek.current();
      cancelSeek.current = seekPlayerWhenReady(file.id, fromMs / 1000);
      // The player read the old list when it loaded it; it is not needed any more.
      if (previous) setTimeout(() => releaseLocalCues(previous), 5000);
    },
    [file],
  );

  const stop = useCallback(() => pausePlayer(), []);

  const position = useCallback(() => playheadMs(file.id), [file.id]);

  /** The level the scheduler gives now (0 when not playing this file). */
  const level = useCallback(() => {
    const at = playheadMs(file.id);
    if (at === null) return 0;
    const step = stepHaptics(schedule.current, previewed.current, at, settings.current);
    schedule.current = step.state;
    return step.state.level;
  }, [file.id]);

  return { playing, start, stop, position, level, maxLevel: MAX_DEVICE_LEVEL };
}
