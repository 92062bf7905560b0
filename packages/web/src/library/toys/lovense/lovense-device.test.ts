import type { LovenseCommandRequest } from '@mesmer/shared/api/lovense';
import {
  HAPTICS_POLL_MS,
  type HapticCue,
  type HapticSettings,
  initialHapticState,
  stepHaptics,
} from '@mesmer/shared/domain/haptic-cues';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLovenseDevice, MIN_COMMAND_GAP_MS } from './lovense-device.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A send whose answers come back after `latencyMs`, noting each command with the time it left. */
function recorder(latencyMs = 20) {
  const sent: (LovenseCommandRequest & { at: number })[] = [];
  const send = (command: LovenseCommandRequest) => {
    sent.push({ ...command, at: Date.now() });
    return new Promise((resolve) => setTimeout(resolve, latencyMs));
  };
  return { sent, send };
}

describe('the Lovense haptic device', () => {
  it('sends each level change of a cue schedule, with max vibration and offset applied', async () => {
    const cues: HapticCue[] = [
      { time: 1000, stopTime: 1500, strength: 0.5 },
      { time: 1500, stopTime: 2000, strength: 1 },
      { time: 3000, stopTime: 3100, strength: 0.25 },
    ];
    // Cues 200 ms early; at most half strength: 0.5 → 10 → 5, 1 → 20 → 10, 0.25 → 5 → 3.
    const settings: HapticSettings = { offsetMs: 200, maxVibration: 50 };
    const { sent, send } = recorder();
    const device = createLovenseDevice(send);
    const start = Date.now();
    let state = initialHapticState();
    for (let t = 0; t <= 4000; t += HAPTICS_POLL_MS) {
      const step = stepHaptics(state, cues, t, settings);
      state = step.state;
      if (step.command?.type === 'vibrate') device.vibrate(step.command.level);
      if (step.command?.type === 'stop') device.stop();
      await vi.advanceTimersByTimeAsync(HAPTICS_POLL_MS);
    }
    expect(sent.map(({ at, ...command }) => ({ ...command, at: at - start }))).toEqual([
      { level: 5, timeSec: 0, at: 800 },
      { level: 10, timeSec: 0, at: 1300 },
      { level: 0, timeSec: 0, at: 1800 },
      { level: 3, timeSec: 0, at: 2800 },
      { level: 0, timeSec: 0, at: 2900 },
    ]);
  });

  it('keeps one command in flight: a newer level replaces the one waiting, and a wait for the level the toy has is dropped', async () => {
    const { sent, send } = recorder(200);
    const device = createLovenseDevice(send);
    device.vibrate(4);
    device.vibrate(8);
    device.vibrate(12);
    device.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent.map((c) => c.level)).toEqual([4, 0]);

    device.vibrate(6);
    device.vibrate(9);
    device.vibrate(6);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent.map((c) => c.level)).toEqual([4, 0, 6]);
  });

  it('starts commands at least 50 ms apart (20 a second at most) even when the server answers at once', async () => {
    const { sent, send } = recorder(0);
    const device = createLovenseDevice(send);
    for (let i = 1; i <= 100; i++) {
      device.vibrate((i % 20) + 1);
      await vi.advanceTimersByTimeAsync(HAPTICS_POLL_MS);
    }
    await vi.advanceTimersByTimeAsync(1000);
    const gaps = sent.slice(1).map((c, i) => c.at - sent[i].at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(MIN_COMMAND_GAP_MS);
    expect(sent.length).toBeLessThanOrEqual(21);
    // The last level asked for is the one the toy ends with.
    expect(sent.at(-1)?.level).toBe((100 % 20) + 1);
  });

  it('reports a failed command and sends the next level anyway', async () => {
    const errors: unknown[] = [];
    const levels: number[] = [];
    const device = createLovenseDevice(
      async ({ level }) => {
        levels.push(level);
        if (level === 5) throw new Error('offline');
      },
      (err) => errors.push(err),
    );
    device.vibrate(5);
    await vi.advanceTimersByTimeAsync(100);
    device.vibrate(5);
    await vi.advanceTimersByTimeAsync(100);
    expect(levels).toEqual([5, 5]);
    expect(errors).toHaveLength(2);
  });
});
