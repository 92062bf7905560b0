/**
 * The player's haptic device over Lovense's server: each level change is a POST /api/lovense/command
 * with timeSec 0 (keep it until the next one). One command is in flight at a time, and they start at
 * least MIN_COMMAND_GAP_MS apart (the server takes 20 a second per account): a level that arrives
 * meanwhile waits, and a newer one replaces it, so the toy follows the latest level and skips the
 * ones it would only have flickered through.
 */
import type { LovenseCommandRequest } from '@mesmer/shared/api/lovense';
import type { HapticDevice } from '../../../player/index.ts';

/** 1000 ms / 20 commands. */
export const MIN_COMMAND_GAP_MS = 50;

export function createLovenseDevice(
  send: (command: LovenseCommandRequest) => Promise<unknown>,
  onError: (err: unknown) => void = () => {},
): HapticDevice {
  /** The level the toy has as far as we know; null when unknown (a command failed). */
  let current: number | null = null;
  let busy = false;
  let waiting: number | null = null;

  function flush() {
    const level = waiting;
    waiting = null;
    if (level !== null) push(level);
  }

  function push(level: number) {
    if (busy) {
      waiting = level;
      return;
    }
    if (level === current) return;
    busy = true;
    const startedAt = Date.now();
    send({ level, timeSec: 0 })
      .then(
        () => {
          current = level;
        },
        (err) => {
          current = null;
          onError(err);
        },
      )
      .finally(() => {
        const wait = MIN_COMMAND_GAP_MS - (Date.now() - startedAt);
        const done = () => {
          busy = false;
          flush();
        };
        if (wait > 0) setTimeout(done, wait);
        else done();
      });
  }

  return {
    vibrate: (level) => push(level),
    stop: () => push(0),
  };
}
