import type {
  CreateTriggerRequest,
  listTriggersResponse,
  oneTriggerResponse,
  triggerRequestsResponse,
  UpdateTriggerRequest,
} from '@mesmer/shared/api/triggers';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../lib/api-client.ts';

/** GET /api/triggers: every published trigger, sorted by name. */
export const triggersQuery = queryOptions({
  queryKey: ['triggers', 'list'],
  queryFn: async ({ signal }) =>
    (await api<z.infer<typeof listTriggersResponse>>('/triggers', { signal })).triggers,
  staleTime: 5 * 60_000,
});

/** GET /api/triggers/requests: pending requests (staff: all; requesters: their own). */
export const triggerRequestsQuery = queryOptions({
  queryKey: ['triggers', 'requests'],
  queryFn: async ({ signal }) =>
    (await api<z.infer<typeof triggerRequestsResponse>>('/triggers/requests', { signal })).triggers,
});

/** GET /api/triggers?uuid= or ?name=: one trigger (404 when none). */
export function triggerQuery(lookup: { uuid: string } | { name: string }) {
  return queryOptions({
    queryKey: ['triggers', 'one', lookup],
    queryFn: async ({ signal }) =>
      (await api<z.infer<typeof oneTriggerResponse>>('/triggers', { query: lookup, signal })).trigger,
  });
}

/** POST /api/triggers: answers the trigger, `pending` when it was only requested. */
export function useCreateTrigger() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateTriggerRequest) =>
      (await api<z.infer<typeof oneTriggerResponse>>('/triggers', { method: 'POST', body })).trigger,
    onSuccess: () => client.invalidateQueries({ queryKey: ['triggers'] }),
  });
}

/** PUT /api/triggers (staff): edit and/or approve. */
export function useUpdateTrigger() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateTriggerRequest) =>
      (await api<z.infer<typeof oneTriggerResponse>>('/triggers', { method: 'PUT', body })).trigger,
    onSuccess: () => client.invalidateQueries({ queryKey: ['triggers'] }),
  });
}

/** DELETE /api/trigger?id= (staff). */
export function useDeleteTrigger() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>('/trigger', { method: 'DELETE', query: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['triggers'] }),
  });
}
