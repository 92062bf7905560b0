import { triggersRoutes } from '@mesmer/shared/routes/triggers';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';

/** Every trigger query sits under `all`: creating, editing or deleting one refreshes them all. */
export const triggerKeys = {
  all: ['triggers'] as const,
  list: () => [...triggerKeys.all, 'list'] as const,
  requests: () => [...triggerKeys.all, 'requests'] as const,
  one: (lookup: { uuid: string } | { name: string }) => [...triggerKeys.all, 'one', lookup] as const,
};

/** GET /api/triggers: every published trigger, sorted by name. */
export const triggersQuery = queryOptions({
  queryKey: triggerKeys.list(),
  queryFn: async ({ signal }) => {
    // Without uuid or name the answer is the list.
    const answer = await call(triggersRoutes.get, { signal });
    if (!('triggers' in answer)) throw new Error('GET /api/triggers answered one trigger');
    return answer.triggers;
  },
  staleTime: 5 * 60_000,
});

/** GET /api/triggers/requests: pending requests (staff: all; requesters: their own). */
export const triggerRequestsQuery = queryOptions({
  queryKey: triggerKeys.requests(),
  queryFn: async ({ signal }) => (await call(triggersRoutes.requests, { signal })).triggers,
});

/** GET /api/triggers?uuid= or ?name=: one trigger (404 when none). */
export function triggerQuery(lookup: { uuid: string } | { name: string }) {
  return queryOptions({
    queryKey: triggerKeys.one(lookup),
    queryFn: async ({ signal }) => {
      // With a uuid or name the answer is that one trigger (404 when there is none).
      const answer = await call(triggersRoutes.get, { query: lookup, signal });
      if (!('trigger' in answer)) throw new Error('GET /api/triggers with a lookup answered a list');
      return answer.trigger;
    },
  });
}
