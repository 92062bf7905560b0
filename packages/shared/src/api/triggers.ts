import { z } from 'zod';
import { TEXT_LIMITS } from '../domain/limits.ts';
import { TRIGGER_DESCRIPTION_MAX } from '../domain/triggers.ts';
import { triggersRoutes } from '../routes/triggers.ts';
import { errorResponse, id, queryId, text, userRef } from './common.ts';
import { defineRoute, noContent } from './contract.ts';

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

export const triggersApi = {
  get: defineRoute(triggersRoutes.get, {
    tags: ['triggers'],
    description:
      'Every published trigger sorted by name (pending requests are left out); with `uuid` or `name` one trigger. `name` follows the detail route: ' +
      'spaces become underscores and case is ignored (`sleep_now` finds "Sleep Now"). 404 "Trigger not found."',
    query: getTriggersQuery,
    responses: { 200: z.union([listTriggersResponse, oneTriggerResponse]), 404: errorResponse },
  }),
  create: defineRoute(triggersRoutes.create, {
    tags: ['triggers'],
    description:
      'Adds a trigger. With CREATE_TRIGGERS it is published at once; with only REQUEST_TRIGGERS it is stored ' +
      'as a request (`pending: true`): not listed and not usable until staff approve it (PUT /api/triggers). ' +
      'The description is cut to 250 characters; a name already used (ignoring case, requests included) answers 409.',
    body: createTriggerRequest,
    responses: { 201: oneTriggerResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse },
  }),
  requests: defineRoute(triggersRoutes.requests, {
    tags: ['triggers'],
    description:
      "Pending trigger requests, oldest first: every one for staff (CREATE_TRIGGERS), the caller's own for " +
      'holders of REQUEST_TRIGGERS; 403 for anyone else.',
    responses: { 200: triggerRequestsResponse, 401: errorResponse, 403: errorResponse },
  }),
  update: defineRoute(triggersRoutes.update, {
    tags: ['triggers'],
    description:
      'Staff only (CREATE_TRIGGERS): renames and/or redescribes a trigger, published or pending, and with ' +
      '`approve: true` publishes a request. 404 "Trigger not found.", 409 for a name already used.',
    body: updateTriggerRequest,
    responses: {
      200: oneTriggerResponse,
      401: errorResponse,
      403: errorResponse,
      404: errorResponse,
      409: errorResponse,
    },
  }),
  delete: defineRoute(triggersRoutes.delete, {
    tags: ['triggers'],
    description:
      'Staff only (CREATE_TRIGGERS): deletes a trigger or rejects a request; its links to files and users go too.',
    query: deleteTriggerQuery,
    responses: { 204: noContent, 401: errorResponse, 403: errorResponse, 404: errorResponse },
  }),
};
