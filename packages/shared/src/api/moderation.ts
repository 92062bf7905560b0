import { z } from 'zod';
import { errorResponse, id, queryId, text } from './common.ts';
import { defineRoute, noContent } from './contract.ts';

export const REPORT_REASON_MAX = 2000;

export const blockRequest = z.object({
  threadId: id,
  report: z.boolean().default(false),
  reportMessage: text(REPORT_REASON_MAX).trim().optional(),
});
export type BlockRequest = z.input<typeof blockRequest>;

export const blockedUser = z.object({
  id: z.number().int(),
  username: z.string(),
  /** ISO 8601. */
  blockedAt: z.string(),
});
export type BlockedUser = z.infer<typeof blockedUser>;

export const moderationApi = {
  block: defineRoute({
    method: 'POST',
    path: '/user/block',
    tags: ['moderation'],
    description:
      "Blocks every other member of a thread the caller is in (404 otherwise) and hides the thread from the caller's list. " +
      "With report true, files a report of subject 'thread' with reportMessage as the reason.",
    body: blockRequest,
    responses: {
      200: z.object({ blocked: z.array(z.number().int()), reportId: z.number().int().nullable() }),
      400: errorResponse,
      401: errorResponse,
      404: errorResponse,
    },
  }),
  unblock: defineRoute({
    method: 'DELETE',
    path: '/user/block',
    tags: ['moderation'],
    description: 'Ends the caller’s block of userId (204 also when there was none).',
    query: z.object({ userId: queryId }),
    responses: { 204: noContent, 400: errorResponse, 401: errorResponse },
  }),
  blocks: defineRoute({
    method: 'GET',
    path: '/user/blocks',
    tags: ['moderation'],
    description: 'The users the caller blocked, newest first.',
    responses: { 200: z.object({ users: z.array(blockedUser) }), 401: errorResponse },
  }),
};
