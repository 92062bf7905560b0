import { z } from 'zod';
import { TRIGGER_DESCRIPTION_MAX } from '../domain/triggers.ts';
import { userRef } from './common.ts';

export const trigger = z.object({
  id: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  description: z.string(),
  creator: userRef,
  /** Made by the site owner (creator id 1). */
  isCore: z.boolean(),
});
export type Trigger = z.infer<typeof trigger>;

/** GET /api/triggers: every trigger sorted by name, or one by `uuid` or `name` (404 when none). */
export const getTriggersQuery = z.object({ uuid: z.uuid().optional(), name: z.string().max(100).optional() });
export const listTriggersResponse = z.object({ triggers: z.array(trigger) });
export const oneTriggerResponse = z.object({ trigger });

/** POST /api/triggers → 201. The description is cut to 250 characters. */
export const createTriggerRequest = z.object({
  name: z.string().trim().min(1, 'Name is required.').max(60),
  description: z
    .string()
    .default('')
    .transform((d) => d.slice(0, TRIGGER_DESCRIPTION_MAX)),
});
export type CreateTriggerRequest = z.input<typeof createTriggerRequest>;
