/**
 * The player's haptic device over a Buttplug client (Intiface Central): every vibrating toy the
 * client knows follows the cues. Levels arrive already limited by the listener's max vibration
 * (shared/domain/haptic-cues.ts), so level 20 is full speed.
 */
import { MAX_DEVICE_LEVEL } from '@mesmer/shared/domain/haptic-cues';
import type { HapticDevice } from '../../../player/index.ts';

/** What the driver uses of a buttplug ButtplugClientDevice. */
export interface ButtplugToy {
  readonly index: number;
  readonly name: string;
  /** The toy's Vibrate actuators; none means the toy cannot vibrate. */
  readonly vibrateAttributes: readonly unknown[];
  /** Every Vibrate actuator at `speed`, 0 to 1 (ScalarCmd). */
  vibrate(speed: number): Promise<void>;
  /** StopDeviceCmd. */
  stop(): Promise<void>;
}

/** What the driver uses of a buttplug ButtplugClient. */
export interface ButtplugToys {
  readonly connected: boolean;
  /** The toys found so far (throws when never connected, as buttplug's client does). */
  readonly devices: readonly ButtplugToy[];
}

export const canVibrate = (toy: ButtplugToy) => toy.vibrateAttributes.length > 0;

/** The toys found, none when the client is not connected. */
const toysOf = (client: ButtplugToys): readonly ButtplugToy[] => (client.connected ? client.devices : []);

/**
 * A HapticDevice driving every vibrating toy of `client` (also toys found later). A command a toy
 * refuses (it went away mid-session) goes to `onError` and playback carries on.
 */
export function createButtplugDevice(
  client: ButtplugToys,
  onError: (err: unknown) => void = () => {},
): HapticDevice {
  return {
    vibrate(level) {
      const speed = Math.min(1, Math.max(0, level / MAX_DEVICE_LEVEL));
      for (const toy of toysOf(client).filter(canVibrate)) toy.vibrate(speed).catch(onError);
    },
    stop() {
      for (const toy of toysOf(client)) toy.stop().catch(onError);
    },
  };
}
