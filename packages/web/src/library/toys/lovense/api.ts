import type { LovenseCommandRequest } from '@mesmer/shared/api/lovense';
import { lovenseRoutes } from '@mesmer/shared/routes/lovense';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lovenseToysQuery } from '../../../api/lovense.ts';
import { call } from '../../../lib/api-client.ts';

/** POST /api/lovense/qr: a new pairing QR code (the previous one stops working). */
export function useLovenseQr() {
  return useMutation({ mutationFn: () => call(lovenseRoutes.qr) });
}

/** POST /api/lovense/test: level 10 for 2 seconds. */
export function useLovenseTest() {
  return useMutation({ mutationFn: () => call(lovenseRoutes.test) });
}

/** DELETE /api/lovense: forgets the connection; the toy list empties. */
export function useLovenseDisconnect() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(lovenseRoutes.disconnect),
    onSuccess: () => queryClient.setQueryData(lovenseToysQuery.queryKey, { connected: false, toys: [] }),
  });
}

/** POST /api/lovense/command: what the player's Lovense device sends. */
export function sendLovenseCommand(body: LovenseCommandRequest): Promise<unknown> {
  return call(lovenseRoutes.command, { body });
}
