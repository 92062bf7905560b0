import { type LovenseCommandRequest, lovenseApi } from '@mesmer/shared/api/lovense';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';

/** GET /api/lovense/toys: whether Lovense Remote reported in, and its toys. */
export const lovenseToysQuery = queryOptions({
  queryKey: ['lovense', 'toys'],
  queryFn: ({ signal }) => call(lovenseApi.toys, { signal }),
});

/** POST /api/lovense/qr: a new pairing QR code (the previous one stops working). */
export function useLovenseQr() {
  return useMutation({ mutationFn: () => call(lovenseApi.qr) });
}

/** POST /api/lovense/test: level 10 for 2 seconds. */
export function useLovenseTest() {
  return useMutation({ mutationFn: () => call(lovenseApi.test) });
}

/** DELETE /api/lovense: forgets the connection; the toy list empties. */
export function useLovenseDisconnect() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(lovenseApi.disconnect),
    onSuccess: () => queryClient.setQueryData(lovenseToysQuery.queryKey, { connected: false, toys: [] }),
  });
}

/** POST /api/lovense/command: what the player's Lovense device sends. */
export function sendLovenseCommand(body: LovenseCommandRequest): Promise<unknown> {
  return call(lovenseApi.command, { body });
}
