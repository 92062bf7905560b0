/** The app's one Intiface connection, over the real Buttplug client and the player's toy seam. */
import { setHapticDevice } from '../../../player/index.ts';
import { openButtplugClient } from './buttplug-client.ts';
import { createIntifaceConnection } from './intiface-connection.ts';

export const intiface = createIntifaceConnection({
  open: openButtplugClient,
  setHapticDevice,
  storage: typeof localStorage === 'undefined' ? undefined : localStorage,
});

/** Ends the Intiface connection, if any (the listener picked another way to connect a toy). */
export function disconnectIntiface(): void {
  void intiface.disconnect();
}
