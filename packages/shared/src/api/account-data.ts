import { z } from 'zod';
import { TEXT_LIMITS } from '../domain/limits.ts';
import { accountDataRoutes } from '../routes/account-data.ts';
import { errorResponse, text } from './common.ts';
import { defineRoute, noContent } from './contract.ts';

/** What happens to the files and playlists of an account being deleted. */
export const CONTENT_CHOICES = ['delete', 'transfer'] as const;
export type ContentChoice = (typeof CONTENT_CHOICES)[number];

export const deleteAccountRequest = z.object({
  password: text(TEXT_LIMITS.password).min(1, 'is required'),
  /**
   * delete: the account's files and playlists go too; transfer: they go to the "Former member"
   * account, private until staff review them (never the site owner's, never official or core).
   */
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
      insightsOptOut: z.boolean(),
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
  plans: z.array(
    z.object({
      uuid: z.string(),
      name: z.string(),
      description: z.string(),
      dateCreated: when,
      playlists: z.array(z.object({ uuid: z.string(), name: z.string() })),
    }),
  ),
  /** Triggers the account added (or asked for: `pending` until staff approve). */
  triggersCreated: z.array(
    z.object({
      uuid: z.string(),
      name: z.string(),
      description: z.string(),
      pending: z.boolean(),
      createdAt: when,
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
      /** A play of a downloaded copy, sent after the fact. */
      offline: z.boolean(),
      /** Listening time the session credited (ms). */
      creditedMs: z.number().int(),
      /** Where the play came from and whether a toy was connected (null: not said, or cleared after 90 days). */
      source: z.string().nullable(),
      toyConnected: z.boolean().nullable(),
    }),
  ),
  /** Credited listening per day in the account's time zone ("Your listening"'s calendar), ms. */
  listeningDays: z.array(z.object({ day: z.string(), listenedMs: z.number() })),
  /** Files downloaded whole for offline listening (the first download of each). */
  offlineCopies: z.array(z.object({ fileUuid: z.string(), fileName: z.string(), copiedAt: when })),
  threads: z.array(
    z.object({ id: z.number().int(), name: z.string().nullable(), hiddenAt: when.nullable() }),
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
  /** The linked Patreon identity; its OAuth tokens are never part of the export. */
  patreon: z
    .object({
      patreonUserId: z.string(),
      patreonName: z.string().nullable(),
      linkedAt: when,
      lastVerified: when,
    })
    .nullable(),
  /** The Lovense Remote app and toys last reported; the pairing secret (kept hashed) is never exported. */
  lovense: z.object({
    connection: z
      .object({
        domain: z.string(),
        httpsPort: z.number().int().nullable(),
        httpPort: z.number().int().nullable(),
        wsPort: z.number().int().nullable(),
        wssPort: z.number().int().nullable(),
        appType: z.string().nullable(),
        platform: z.string().nullable(),
        appVersion: z.string().nullable(),
        updatedAt: when,
      })
      .nullable(),
    toys: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        nickName: z.string().nullable(),
        connected: z.boolean(),
        updatedAt: when,
      }),
    ),
  }),
  /** Reports the account filed (what was reported and why; not what moderators decided). */
  reportsFiled: z.array(
    z.object({ subjectType: z.string(), subjectId: z.number().int(), reason: z.string(), createdAt: when }),
  ),
  /** Signed-in sessions (their tokens are kept only hashed and never exported). */
  signInSessions: z.array(z.object({ createdAt: when, lastSeenAt: when, expiresAt: when })),
  /** Uploads started and not yet made into files. */
  uploadsInProgress: z.array(
    z.object({ uuid: z.string(), fileName: z.string(), state: z.string(), createdAt: when }),
  ),
});
export type AccountExport = z.infer<typeof accountExport>;

export const accountDataApi = {
  export: defineRoute(accountDataRoutes.export, {
    tags: ['account'],
    summary: 'Download my data: everything kept about the signed-in account, as a JSON file',
    description:
      'Profile and settings, files, playlists, plans and triggers created, ratings, plan progress, listening ' +
      'history, offline copies, threads and messages sent, friends, blocks, memberships, the Patreon link, ' +
      'Lovense app and toys, reports filed, sign-in sessions and uploads in progress; never a token or ' +
      'secret. Answered as an attachment (mesmer-<username>.json).',
    responses: { 200: accountExport, 401: errorResponse },
  }),
  delete: defineRoute(accountDataRoutes.delete, {
    tags: ['account'],
    summary: 'Delete my account, after the password again',
    description:
      'With `content: delete` the account’s files (and their media) and playlists are removed; with ' +
      '`transfer` they go to the “Former member” account, private (the files it wrote and its playlists) ' +
      'until staff holding WRITE_ALL_FILES review and publish them; never official or core. ' +
      'Messages stay in their threads as from a deleted user. ' +
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
