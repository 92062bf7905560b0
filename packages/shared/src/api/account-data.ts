import { z } from 'zod';
import { errorResponse, TEXT_LIMITS, text } from './common.ts';
import { defineRoute, noContent } from './contract.ts';

/** What happens to the files and playlists of an account being deleted. */
export const CONTENT_CHOICES = ['delete', 'transfer'] as const;
export type ContentChoice = (typeof CONTENT_CHOICES)[number];

export const deleteAccountRequest = z.object({
  password: text(TEXT_LIMITS.password).min(1, 'is required'),
  /** delete: the account's files and playlists go too; transfer: they become the site owner's. */
  content: z.enum(CONTENT_CHOICES),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequest>;

const when = z.string().describe('ISO 8601');

/** Everything the site keeps about one account, as the account holder downloads it. */
export const accountExport = z.object({
  exportedAt: when,
  profile: z.object({
    id: z.number().int(),
    username: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    biography: z.string(),
    imageURL: z.string().nullable(),
    points: z.number().int(),
    streak: z.number().int(),
    timezone: z.string(),
    createdAt: when,
    roles: z.array(z.string()),
    settings: z.object({
      censorTriggers: z.boolean(),
      hideLockedFiles: z.boolean(),
      vibrationOffset: z.number().int(),
      maxVibration: z.number().int(),
    }),
    triggers: z.array(z.object({ name: z.string(), trainingAmount: z.number().int() })),
  }),
  files: z.array(
    z.object({
      uuid: z.string(),
      name: z.string(),
      description: z.string(),
      isPublic: z.boolean(),
      createdAt: when,
    }),
  ),
  playlists: z.array(
    z.object({
      uuid: z.string(),
      name: z.string(),
      description: z.string(),
      isPublic: z.boolean(),
      dateCreated: when,
      files: z.array(z.object({ uuid: z.string(), name: z.string() })),
    }),
  ),
  ratings: z.array(
    z.object({
      playlistUuid: z.string(),
      playlistName: z.string(),
      liked: z.boolean(),
      disliked: z.boolean(),
      favorite: z.boolean(),
    }),
  ),
  planProgress: z.array(z.object({ planUuid: z.string(), planName: z.string(), position: z.number().int() })),
  listeningHistory: z.array(
    z.object({
      fileUuid: z.string().nullable(),
      fileName: z.string().nullable(),
      startedAt: when,
      endedAt: when.nullable(),
      points: z.number().int(),
    }),
  ),
  messagesSent: z.array(z.object({ threadId: z.number().int(), message: z.string(), sentAt: when })),
  friends: z.array(z.object({ username: z.string(), since: when.nullable(), accepted: z.boolean() })),
  blocked: z.array(z.object({ username: z.string(), since: when })),
  memberships: z.array(
    z.object({
      creatorName: z.string(),
      tierName: z.string(),
      active: z.boolean(),
      cancelled: z.boolean(),
      lastVerified: when.nullable(),
    }),
  ),
});
export type AccountExport = z.infer<typeof accountExport>;

export const accountDataApi = {
  export: defineRoute({
    method: 'GET',
    path: '/user/export',
    tags: ['account'],
    summary: 'Download my data: everything kept about the signed-in account, as a JSON file',
    description:
      'Profile and settings, files and playlists, ratings, plan progress, listening history, messages sent, ' +
      'friends, blocks and memberships. Answered as an attachment (mesmer-<username>.json).',
    responses: { 200: accountExport, 401: errorResponse },
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/user',
    tags: ['account'],
    summary: 'Delete my account, after the password again',
    description:
      'With `content: delete` the account’s files (and their media) and playlists are removed; with ' +
      '`transfer` they become the site owner’s. Messages stay in their threads as from a deleted user. ' +
      'Every session ends. A wrong password answers 403 and counts as a failed sign-in. The site owner ' +
      '(user 1) cannot be deleted here (403).',
    body: deleteAccountRequest,
    responses: {
      204: noContent,
      400: errorResponse,
      401: errorResponse,
      403: errorResponse,
      429: errorResponse,
    },
  }),
};
