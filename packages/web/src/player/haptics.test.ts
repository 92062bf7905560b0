import type { HapticCue } from '@mesmer/shared/domain/haptic-cues';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHapticsDriver, type HapticDevice } from './haptics.ts';

const cues: HapticCue[] = [
  { time: 100, stopTime: 200, strength: 1 },
  { time: 300, stopTime: 400, strength: 0.5 },
];

function setup(settings = { offsetMs: 0, maxVibration: 100 }) {
  let timeMs = 0;
  const sent: string[] = [];
  const device: HapticDevice = {
    vibrate: (level) => sent.push(`${timeMs}:${level}`),
    stop: () => sent.push(`${timeMs}:stop`),
  };
  const fetchCues = vi.fn(async () => cues);
  const driver = createHapticsDriver({ currentTimeMs: () => timeMs, settings: () => settings, fetchCues });
  /** Plays on: the clock and the playhead advance together, 10 ms at a time. */
  const play = (ms: number) => {
    for (let t = 0; t < ms; t += 10) {
      timeMs += 10;
      vi.advanceTimersByTime(10);
    }
  };
  return { driver, device, sent, fetchCues, play, seek: (ms: number) => (timeMs = ms) };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('haptics driver', () => {
  it('does nothing, and fetches nothing, without a device', async () => {
    const { driver, fetchCues, sent, play } = setup();
    await driver.setTrack('/media/cues.json');
    driver.play();
    play(500);
    expect(fetchCues).not.toHaveBeenCalled();
    expect(sent).toEqual([]);
  });

  it('polls every 10 ms while playing and sends the changes to the device', async () => {
    const { driver, device, sent, fetchCues, play } = setup();
    driver.setDevice(device);
    await driver.setTrack('/media/cues.json');
    expect(fetchCues).toHaveBeenCalledWith('/media/cues.json');
    driver.play();
    play(450);
    expect(sent).toEqual(['100:20', '200:stop', '300:10', '400:stop']);
  });

  it("uses the listener's offset and max vibration", async () => {
    const { driver, device, sent, play } = setup({ offsetMs: 50, maxVibration: 50 });
    driver.setDevice(device);
    await driver.setTrack('/media/cues.json');
    driver.play();
    play(200);
    expect(sent).toEqual(['50:10', '150:stop']);
  });

  it('stops the toy on pause and picks the cue up again on play', async () => {
    const { driver, device, sent, play } = setup();
    driver.setDevice(device);
    await driver.setTrack('/media/cues.json');
    driver.play();
    play(150);
    driver.pause();
    expect(sent).toEqual(['100:20', '150:stop']);
    vi.advanceTimersByTime(1000);
    expect(sent).toHaveLength(2);
    driver.play();
    play(10);
    expect(sent.at(-1)).toBe('160:20');
  });

  it('finds the cue again after a seek', async () => {
    const { driver, device, sent, play, seek } = setup();
    driver.setDevice(device);
    await driver.setTrack('/media/cues.json');
    driver.play();
    play(350);
    seek(110);
    driver.seeked();
    play(10);
    expect(sent.slice(-1)).toEqual(['120:20']);
  });

  it('a track without cues stops the toy', async () => {
    const { driver, device, sent, play } = setup();
    driver.setDevice(device);
    await driver.setTrack('/media/cues.json');
    driver.play();
    play(150);
    await driver.setTrack(null);
    play(300);
    expect(sent).toEqual(['100:20', '150:stop']);
  });

  it('wake-up silences the toy at once and keeps it still until released', async () => {
    const { driver, device, sent, play } = setup();
    driver.setDevice(device);
    await driver.setTrack('/media/cues.json');
    driver.play();
    play(150);
    expect(sent).toEqual(['100:20']);
    driver.silence();
    expect(sent).toEqual(['100:20', '150:stop']);
    driver.play();
    play(200);
    expect(sent).toEqual(['100:20', '150:stop']);
    driver.release();
    play(100);
    // Released while the second cue runs: it drives the toy again.
    expect(sent).toEqual(['100:20', '150:stop', '360:10', '400:stop']);
  });
});
