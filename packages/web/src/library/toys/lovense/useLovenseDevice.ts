import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { lovenseToysQuery } from '../../../api/lovense.ts';
import { setHapticDevice } from '../../../player/index.ts';
import { toast } from '../../../ui/index.ts';
import { sendLovenseCommand } from './api.ts';
import { createLovenseDevice } from './lovense-device.ts';

/**
 * While `enabled` (a signed-in listener who chose Lovense) and the account's Lovense Remote is
 * connected, the player's haptic cues drive its toys through our server; otherwise, or once the
 * caller unmounts, the player has no toy again. Mount it where it lives as long as the player
 * (the app shell), not on the account page. The first failed command says so once.
 */
export function useLovenseDevice(enabled: boolean): void {
  const toys = useQuery({ ...lovenseToysQuery, enabled, retry: false });
  const active = enabled && toys.data?.connected === true;
  useEffect(() => {
    if (!active) return;
    let warned = false;
    setHapticDevice(
      createLovenseDevice(sendLovenseCommand, (err) => {
        if (warned) return;
        warned = true;
        toast(
          'warning',
          'Your Lovense toy is not responding.',
          err instanceof Error ? err.message : undefined,
        );
      }),
    );
    return () => setHapticDevice(null);
  }, [active]);
}
