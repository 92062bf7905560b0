import type { CreateTriggerRequest, UpdateTriggerRequest } from '@mesmer/shared/api/triggers';
import { triggersRoutes } from '@mesmer/shared/routes/triggers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { triggerKeys } from '../../api/triggers.ts';
import { call } from '../../lib/api-client.ts';

/** POST /api/triggers: answers the trigger, `pending` when it was only requested. */
export function useCreateTrigger() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateTriggerRequest) => (await call(triggersRoutes.create, { body })).trigger,
    onSuccess: () => client.invalidateQueries({ queryKey: triggerKeys.all }),
  });
}

/** PUT /api/triggers (staff): edit and/or approve. */
export function useUpdateTrigger() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateTriggerRequest) => (await call(triggersRoutes.update, { body })).trigger,
    onSuccess: () => client.invalidateQueries({ queryKey: triggerKeys.all }),
  });
}

/** DELETE /api/trigger?id= (staff). */
export function useDeleteTrigger() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(triggersRoutes.delete, { query: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: triggerKeys.all }),
  });
}
