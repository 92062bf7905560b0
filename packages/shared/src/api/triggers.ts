import { z } from 'zod';
import { TRIGGER_DESCRIPTION_MAX } from '../domain/triggers.ts';
import { id, queryId, TEXT_LIMITS, text, userRef } from './common.ts';

export const trigger = z.object({
  id: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  description: z.string(),
  /** Null only for the site's vocabulary while there is no user 1. */
  creator: userRef.nullable(),
  /** Made by the site owner (creator id 1) or part of the site's vocabulary. */
  isCore: z.boolean(),
  /** The vocabulary category (null for triggers users added). */
  category: z.string().nullable(),
  /** 0.2 to 1: how strongly the generator prefers files with this trigger. */
  weight: z.number(),
  /** A request waiting for staff: not listed, not usable (decision 002). */
  pending: z.boolean(),
});
export type Trigger = z.infer<typeof trigger>;

/** GET /api/triggers: every trigger sorted by name, or one by `uuid` or `name` (404 when none). */
export const getTriggersQuery = z.object({
  uuid: z.uuid().optional(),
  name: text(TEXT_LIMITS.search).optional(),
});
export const listTriggersResponse = z.object({ triggers: z.array(trigger) });
export const oneTriggerResponse = z.object({ trigger });

/**
 * POST /api/triggers → 201. With CREATE_TRIGGERS the trigger is published; with only the
 * request permission it is stored as a pending request. The description is cut to 250 characters.
 */
export const createTriggerRequest = z.object({
  name: text(TEXT_LIMITS.triggerName).trim().min(1, 'Name is required.'),
  description: text(TEXT_LIMITS.description)
    .default('')
    .transform((d) => d.slice(0, TRIGGER_DESCRIPTION_MAX)),
});
export type CreateTriggerRequest = z.input<typeof createTriggerRequest>;

/** GET /api/triggers/requests: pending requests (staff: all; others: their own), oldest first. */
export const triggerRequestsResponse = z.object({ triggers: z.array(trigger) });

/** PUT /api/triggers (staff): rename, redescribe and/or approve (publish) a trigger. */
export const updateTriggerRequest = z.object({
  id: id.describe('The trigger to change.'),
  name: text(TEXT_LIMITS.triggerName).trim().min(1, 'Name is required.').optional().describe('A new name.'),
  description: text(TEXT_LIMITS.description)
    .transform((d) => d.slice(0, TRIGGER_DESCRIPTION_MAX))
    .optional()
    .describe('A new description, cut to 250 characters.'),
  approve: z.literal(true).optional().describe('Publishes a pending request.'),
});
export type UpdateTriggerRequest = z.input<typeof updateTriggerRequest>;

/** DELETE /api/trigger?id= (staff) → 204. */
export const deleteTriggerQuery = z.object({
  id: queryId.describe('The trigger (published or pending) to delete.'),
});
