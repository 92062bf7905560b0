import type {
  listSeriesResponse,
  oneSeriesResponse,
  updateUserSeriesRequest,
  updateUserSeriesResponse,
} from '@mesmer/shared/api/series';
import {
  mutationOptions,
  type QueryClient,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../lib/api-client.ts';

/** GET /api/series: every training plan. */
export const plansQuery = queryOptions({
  queryKey: ['series', 'list'],
  queryFn: async ({ signal }) =>
    (await api<z.infer<typeof listSeriesResponse>>('/series', { signal })).series,
});

/** GET /api/series?uuid=&includePlaylists=true: one plan with its day playlists and the viewer's position. */
export function planQuery(uuid: string) {
  return queryOptions({
    queryKey: ['series', 'uuid', uuid],
    queryFn: async ({ signal }) =>
      (
        await api<z.infer<typeof oneSeriesResponse>>('/series', {
          query: { uuid, includePlaylists: true },
          signal,
        })
      ).series,
  });
}

/** PUT /api/userseries: saves the viewer's position in a plan (1 resets it). The player runs it too. */
export function savePlanProgressMutation(client: QueryClient) {
  return mutationOptions({
    mutationFn: (body: z.input<typeof updateUserSeriesRequest>) =>
      api<z.infer<typeof updateUserSeriesResponse>>('/userseries', { method: 'PUT', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['series'] }),
  });
}

export function useSavePlanProgress() {
  return useMutation(savePlanProgressMutation(useQueryClient()));
}
