import type { updateUserSeriesRequest } from '@mesmer/shared/api/series';
import { seriesRoutes } from '@mesmer/shared/routes/series';
import {
  mutationOptions,
  type QueryClient,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import type { z } from 'zod';
import { call } from '../lib/api-client.ts';

/** Training plans (the contract's series); every plan query sits under `all`. */
export const planKeys = {
  all: ['series'] as const,
  list: () => [...planKeys.all, 'list'] as const,
  byUuid: (uuid: string) => [...planKeys.all, 'uuid', uuid] as const,
};

/** GET /api/series: every training plan. */
export const plansQuery = queryOptions({
  queryKey: planKeys.list(),
  queryFn: async ({ signal }) => {
    // Without id or uuid the answer is the list.
    const { series } = await call(seriesRoutes.get, { signal });
    if (!Array.isArray(series)) throw new Error('GET /api/series answered one plan');
    return series;
  },
});

/** GET /api/series?uuid=&includePlaylists=true: one plan with its day playlists and the viewer's position. */
export function planQuery(uuid: string) {
  return queryOptions({
    queryKey: planKeys.byUuid(uuid),
    queryFn: async ({ signal }) => {
      // With a uuid the answer is that one plan (404 when there is none).
      const { series } = await call(seriesRoutes.get, { query: { uuid, includePlaylists: true }, signal });
      if (Array.isArray(series)) throw new Error('GET /api/series?uuid= answered a list');
      return series;
    },
  });
}

/** PUT /api/userseries: saves the viewer's position in a plan (1 resets it). The player runs it too. */
export function savePlanProgressMutation(client: QueryClient) {
  return mutationOptions({
    mutationFn: (body: z.input<typeof updateUserSeriesRequest>) => call(seriesRoutes.savePosition, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: planKeys.all }),
  });
}

export function useSavePlanProgress() {
  return useMutation(savePlanProgressMutation(useQueryClient()));
}
