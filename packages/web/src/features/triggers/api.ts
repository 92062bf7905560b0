import {
  type CreateTriggerRequest,
  triggersApi,
  type UpdateTriggerRequest,
} from '@mesmer/shared/api/triggers';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api-client.ts';

/** GET /api/triggers: every published trigger, sorted by name. */
export const triggersQuery = queryOptions({
  queryKey: ['triggers', 'list'],
  queryFn: async ({ signal }) => {
    // Without uuid or name the answer is the list.
    const answer = await call(triggersApi.get, { signal });
    if (!('triggers' in answer)) throw new Error('GET /api/triggers answered one trigger');
    return answer.triggers;
  },
  staleTime: 5 * 60_000,
});

/** GET /api/triggers/requests: pending requests (staff: all; requesters: their own). */
export const triggerRequestsQuery = queryOptions({
  queryKey: ['triggers', 'requests'],
  queryFn: async ({ signal }) => (await call(triggersApi.requests, { signal })).triggers,
});

/** GET /api/triggers?uuid= or ?name=: one trigger (404 when none). */
export function triggerQuery(lookup: { uuid: string } | { name: string }) {
  return queryOptions({
    queryKey: ['triggers', 'one', lookup],
    queryFn: async ({ signal }) => {
      // With a uuid or name the answer is that one trigger (404 when there is none).
      const answer = await call(triggersApi.get, { query: lookup, signal });
      if (!('trigger' in answer)) throw new Error('GET /api/triggers with a lookup answered a list');
      return answer.trigger;
    },
  });
}

/** POST /api/triggers: answers the trigger, `pending` when it was only requested. */
export function useCreateTrigger() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateTriggerRequest) => (await call(triggersApi.create, { body })).trigger,
    onSuccess: () => client.invalidateQueries({ queryKey: ['triggers'] }),
  });
}

/** PUT /api/triggers (staff): edit and/or approve. */
export function useUpdateTrigger() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateTriggerRequest) => (await call(triggersApi.update, { body })).trigger,
    onSuccess: () => client.invalidateQueries({ queryKey: ['triggers'] }),
  });
}

/** DELETE /api/trigger?id= (staff). */
export function useDeleteTrigger() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(triggersApi.delete, { query: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['triggers'] }),
  });
}
