import type { HapticCue } from '@mesmer/shared/domain/haptic-cues';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHapticsDriver } from '../../../player/haptics.ts';
import { openButtplugClient } from './buttplug-client.ts';
import { createButtplugDevice } from './buttplug-device.ts';
import { fakeIntiface, rotator, vibrator } from './fake-intiface-socket.ts';

const cues: HapticCue[] = [
  { time: 100, stopTime: 200, strength: 1 },
  { time: 300, stopTime: 400, strength: 0.5 },
  { time: 400, stopTime: 500, strength: 0.15 },
];

const scalar = (device: number, ...speeds: number[]) => ({
  ScalarCmd: {
    DeviceIndex: device,
    Scalars: speeds.map((Scalar, Index) => ({ Index, Scalar, ActuatorType: 'Vibrate' })),
  },
});
const stop = (device: number) => ({ StopDeviceCmd: { DeviceIndex: device } });

/** The real buttplug client, connected to a fake Intiface Central with these toys. */
async function connect(fake: ReturnType<typeof fakeIntiface>) {
  vi.stubGlobal('WebSocket', fake.WebSocket);
  return openButtplugClient('ws://127.0.0.1:12345');
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('createButtplugDevice', () => {
  it('sends a cue schedule to every vibrating toy as ScalarCmd at level / 20, and stops all toys', async () => {
    const fake = fakeIntiface({ toys: [vibrator(0, 'Lush'), rotator(1, 'Spinner'), vibrator(2, 'Duo', 2)] });
    const client = await connect(fake);
    expect(fake.sent[0]).toEqual({ RequestServerInfo: { Id: 1, ClientName: 'Mesmer', MessageVersion: 3 } });

    vi.useFakeTimers();
    let timeMs = 0;
    const driver = createHapticsDriver({
      currentTimeMs: () => timeMs,
      settings: () => ({ offsetMs: 0, maxVibration: 100 }),
      fetchCues: async () => cues,
    });
    driver.setDevice(createButtplugDevice(client));
    await driver.setTrack('/media/haptics/x.json');
    driver.play();
    for (let t = 0; t < 550; t += 10) {
      timeMs += 10;
      await vi.advanceTimersByTimeAsync(10);
    }

    expect(fake.commands()).toEqual([
      // 100 ms: strength 1 → level 20 → full speed; the rotator cannot vibrate.
      scalar(0, 1),
      scalar(2, 1, 1),
      // 200 ms: the cue ends; every toy stops.
      stop(0),
      stop(1),
      stop(2),
      // 300 ms: strength 0.5 → level 10.
      scalar(0, 0.5),
      scalar(2, 0.5, 0.5),
      // 400 ms: the next cue follows at once: strength 0.15 → level 3.
      scalar(0, 0.15),
      scalar(2, 0.15, 0.15),
      stop(0),
      stop(1),
      stop(2),
    ]);
  });

  it('sends the level the scheduler limited by max vibration', async () => {
    const fake = fakeIntiface({ toys: [vibrator(0, 'Lush')] });
    const device = createButtplugDevice(await connect(fake));
    device.vibrate(10); // e.g. strength 1 at max vibration 50 %
    device.vibrate(1);
    device.vibrate(20);
    await vi.waitFor(() => expect(fake.commands()).toHaveLength(3));
    expect(fake.commands()).toEqual([scalar(0, 0.5), scalar(0, 0.05), scalar(0, 1)]);
  });

  it('sends nothing once the client is disconnected', async () => {
    const fake = fakeIntiface({ toys: [vibrator(0, 'Lush')] });
    const client = await connect(fake);
    const device = createButtplugDevice(client);
    await client.disconnect();
    const before = fake.sent.length;
    device.vibrate(20);
    device.stop();
    await Promise.resolve();
    expect(fake.sent).toHaveLength(before);
  });

  it('reports a command a toy refuses and carries on', async () => {
    const refused = new Error('Device 0 not available.');
    const onError = vi.fn();
    const toy = {
      index: 0,
      name: 'Lush',
      vibrateAttributes: [{}],
      vibrate: vi.fn(() => Promise.reject(refused)),
      stop: vi.fn(async () => {}),
    };
    const device = createButtplugDevice({ connected: true, devices: [toy] }, onError);
    device.vibrate(4);
    device.stop();
    await vi.waitFor(() => expect(onError).toHaveBeenCalledWith(refused));
    expect(toy.vibrate).toHaveBeenCalledWith(0.2);
    expect(toy.stop).toHaveBeenCalled();
  });
});

describe('openButtplugClient', () => {
  it('pings within the max ping time Intiface Central asks for', async () => {
    const fake = fakeIntiface({ toys: [], maxPingTime: 1000 });
    vi.useFakeTimers();
    const client = await connect(fake);
    await vi.advanceTimersByTimeAsync(1600);
    expect(fake.sent.filter((m) => 'Ping' in m)).toHaveLength(3);
    await client.disconnect();
    await vi.advanceTimersByTimeAsync(2000);
    expect(fake.sent.filter((m) => 'Ping' in m)).toHaveLength(3);
  });

  it('rejects when nothing answers at the address', async () => {
    const fake = fakeIntiface({ reachable: false });
    let failed = false;
    await connect(fake).catch(() => {
      failed = true;
    });
    expect(failed).toBe(true);
  });
});
