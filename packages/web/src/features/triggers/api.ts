import type { CreateTriggerRequest, Trigger } from '@mesmer/shared/api/triggers';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';

/** GET /api/triggers: every trigger, sorted by name. */
export const triggersQuery = queryOptions({
  queryKey: ['triggers', 'list'],
  queryFn: async ({ signal }) => (await api<{ triggers: Trigger[] }>('/triggers', { signal })).triggers,
  staleTime: 5 * 60_000,
});

/** GET /api/triggers?uuid= or ?name=: one trigger (404 when none). */
export function triggerQuery(lookup: { uuid: string } | { name: string }) {
  return queryOptions({
    queryKey: ['triggers', 'one', lookup],
    queryFn: async ({ signal }) =>
      (await api<{ trigger: Trigger }>('/triggers', { query: lookup, signal })).trigger,
  });
}

/** POST /api/triggers */
export function useCreateTrigger() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTriggerRequest) => api<unknown>('/triggers', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['triggers'] }),
  });
}
