import { useCurrentUser } from '../../api/auth.ts';
import { LOVENSE_PAIRING } from '../../lib/site.ts';
import { useHapticsProvider } from './haptics-provider.ts';
import { useLovenseDevice } from './lovense/useLovenseDevice.ts';

/**
 * Lives in the app shell, as long as the player: hands a connected Lovense toy to the player while
 * the signed-in listener chose Lovense and the site has Lovense's API. (An Intiface connection hands
 * its device over itself.)
 */
export function HapticsConnection() {
  const { user } = useCurrentUser();
  const provider = useHapticsProvider();
  // A site without Lovense's API would answer 503: ask nothing then.
  useLovenseDevice(LOVENSE_PAIRING && user !== null && user !== undefined && provider === 'lovense');
  return null;
}
