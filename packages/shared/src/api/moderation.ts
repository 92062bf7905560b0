import { z } from 'zod';
import {
  MODERATION_ACTIONS,
  MODERATION_NOTE_MAX,
  MODERATION_PAGE_SIZE,
  REPORT_REASON_MAX,
  REPORT_STATUSES,
  REPORT_SUBJECT_TYPES,
  REPORTABLE_SUBJECT_TYPES,
} from '../domain/moderation.ts';
import { moderationRoutes } from '../routes/moderation.ts';
import { errorResponse, id, pagingQuery, queryId, text, userRef } from './common.ts';
import { defineRoute, noContent } from './contract.ts';

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

/** POST /api/reports: a profile, file or playlist someone finds harmful. */
export const reportRequest = z.object({
  subjectType: z.enum(REPORTABLE_SUBJECT_TYPES),
  subjectId: id,
  reason: text(REPORT_REASON_MAX).trim().min(1, 'must say what is wrong'),
});
export type ReportRequest = z.input<typeof reportRequest>;

/** A message shown around a reported thread. */
export const contextMessage = z.object({
  id: z.number().int(),
  user: userRef.nullable(),
  message: z.string(),
  removed: z.boolean(),
  /** ISO 8601. */
  createdAt: z.string(),
});
export type ContextMessage = z.infer<typeof contextMessage>;

/** A report as the queue shows it, with what it is about. */
export const moderationReport = z.object({
  id: z.number().int(),
  subjectType: z.enum(REPORT_SUBJECT_TYPES),
  subjectId: z.number().int(),
  reason: z.string(),
  /** ISO 8601. */
  createdAt: z.string(),
  reporter: userRef.nullable(),
  reportedUser: userRef.extend({ suspended: z.boolean() }).nullable(),
  /** What is reported: its name and text as they are now, and where the site shows it (null once gone). */
  subject: z.object({
    exists: z.boolean(),
    title: z.string().nullable(),
    text: z.string().nullable(),
    path: z.string().nullable(),
  }),
  /** For a thread, the messages up to the report (oldest first). */
  messages: z.array(contextMessage),
  resolution: z.enum(MODERATION_ACTIONS).nullable(),
  resolvedBy: userRef.nullable(),
  resolvedAt: z.string().nullable(),
});
export type ModerationReport = z.infer<typeof moderationReport>;

export const moderationReportsQuery = z.object({
  status: z.enum(REPORT_STATUSES).default('open'),
  ...pagingQuery(MODERATION_PAGE_SIZE, 50),
});

export const moderationActionRequest = z.object({
  action: z.enum(MODERATION_ACTIONS),
  /** For a thread report's remove: the message to remove. */
  messageId: id.optional(),
  note: text(MODERATION_NOTE_MAX).trim().optional(),
});
export type ModerationActionRequest = z.input<typeof moderationActionRequest>;

export const moderationLogEntry = z.object({
  id: z.number().int(),
  moderator: userRef.nullable(),
  action: z.enum(MODERATION_ACTIONS),
  reportId: z.number().int().nullable(),
  subjectType: z.enum(REPORT_SUBJECT_TYPES),
  subjectId: z.number().int(),
  note: z.string(),
  /** ISO 8601. */
  createdAt: z.string(),
});
export type ModerationLogEntry = z.infer<typeof moderationLogEntry>;

export const moderationApi = {
  report: defineRoute(moderationRoutes.report, {
    tags: ['moderation'],
    description:
      'Reports a profile, file or playlist the caller can see (404 otherwise) to the moderators. ' +
      'At most REPORTS_PER_HOUR a user (429 with Retry-After).',
    body: reportRequest,
    responses: {
      200: z.object({ id: z.number().int() }),
      400: errorResponse,
      401: errorResponse,
      404: errorResponse,
      429: errorResponse,
    },
  }),
  queue: defineRoute(moderationRoutes.queue, {
    tags: ['moderation'],
    description:
      'The moderation queue (Moderators and Administrators): open reports oldest first, or closed ones newest first.',
    query: moderationReportsQuery,
    responses: {
      200: z.object({ reports: z.array(moderationReport), totalItems: z.number().int() }),
      400: errorResponse,
      401: errorResponse,
      403: errorResponse,
    },
  }),
  act: defineRoute(moderationRoutes.act, {
    tags: ['moderation'],
    description:
      "Closes an open report: dismiss; remove (the message, file or playlist, or a profile's biography and picture); " +
      'or suspend the reported user (sessions end, sign-in refused). Recorded in the moderation log.',
    params: z.object({ id: queryId }),
    body: moderationActionRequest,
    responses: {
      200: z.object({ report: moderationReport }),
      400: errorResponse,
      401: errorResponse,
      403: errorResponse,
      404: errorResponse,
      409: errorResponse,
    },
  }),
  log: defineRoute(moderationRoutes.log, {
    tags: ['moderation'],
    description: 'Every moderation action, newest first (Moderators and Administrators).',
    query: z.object(pagingQuery(MODERATION_PAGE_SIZE, 50)),
    responses: {
      200: z.object({ entries: z.array(moderationLogEntry), totalItems: z.number().int() }),
      400: errorResponse,
      401: errorResponse,
      403: errorResponse,
    },
  }),
  block: defineRoute(moderationRoutes.block, {
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
  unblock: defineRoute(moderationRoutes.unblock, {
    tags: ['moderation'],
    description: 'Ends the caller’s block of userId (204 also when there was none).',
    query: z.object({ userId: queryId }),
    responses: { 204: noContent, 400: errorResponse, 401: errorResponse },
  }),
  blocks: defineRoute(moderationRoutes.blocks, {
    tags: ['moderation'],
    description: 'The users the caller blocked, newest first.',
    responses: { 200: z.object({ users: z.array(blockedUser) }), 401: errorResponse },
  }),
};
