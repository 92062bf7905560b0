import { useCurrentUser } from '../auth/index.ts';
import { useHapticsProvider } from './haptics-provider.ts';
import { useLovenseDevice } from './lovense/useLovenseDevice.ts';

/**
 * Lives in the app shell, as long as the player: hands a connected Lovense toy to the player while
 * the signed-in listener chose Lovense. (An Intiface connection hands its device over itself.)
 */
export function HapticsConnection() {
  const { user } = useCurrentUser();
  const provider = useHapticsProvider();
  useLovenseDevice(user !== null && user !== undefined && provider === 'lovense');
  return null;
}
