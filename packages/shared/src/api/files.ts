import { z } from 'zod';
import {
  errorResponse,
  idList,
  pagingQuery,
  queryBool,
  queryId,
  queryInt,
  TEXT_LIMITS,
  text,
} from './common.ts';
import { defineRoute } from './contract.ts';
import { tag } from './tags.ts';

export const fileTrigger = z.object({
  id: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  /** true: the file trains this trigger; false: it only uses it. */
  trains: z.boolean(),
});

export const patreonTier = z.object({
  id: z.string(),
  name: z.string(),
  /** 1 is the lowest tier. */
  rank: z.number().int(),
});

export const fileAuthor = z.object({
  id: z.number().int(),
  username: z.string(),
  patreonName: z.string().nullable(),
});

export const audioFile = z.object({
  id: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  description: z.string(),
  triggers: z.array(fileTrigger),
  patreonTiers: z.array(patreonTier),
  /** File type id (see GET /api/tags); 7 = music, 9 = AI music. */
  fileType: z.number().int(),
  tags: z.array(tag),
  trackNumber: z.number().int().nullable(),
  releaseDate: z.string(),
  isPublic: z.boolean(),
  plays: z.number().int(),
  /** Milliseconds. */
  duration: z.number().int(),
  /** Signed, expiring URL; null when the file is locked for this viewer. */
  audioURL: z.string().nullable(),
  audioType: z.string(),
  scriptURL: z.string().nullable(),
  hapticsURL: z.string().nullable(),
  hasHaptics: z.boolean(),
  /** True when the viewer lacks the membership tier the file needs. */
  isLocked: z.boolean(),
  warnings: z.array(z.object({ text: z.string() })),
  author: fileAuthor,
  uploaderId: z.number().int(),
  userUploaded: z.boolean(),
});
export type AudioFile = z.infer<typeof audioFile>;

export const FILE_SORT_TYPES = ['date', 'name', 'duration', 'playcount'] as const;
export type FileSortType = (typeof FILE_SORT_TYPES)[number];

/** GET /api/files */
export const listFilesQuery = z.object({
  ...pagingQuery(20),
  searchQuery: text(TEXT_LIMITS.search).optional(),
  nameQuery: text(TEXT_LIMITS.search).optional(),
  sortType: z.enum(FILE_SORT_TYPES).default('date'),
  sortDirection: z.enum(['asc', 'desc']).default('desc'),
  /** Milliseconds. */
  minDuration: queryInt().optional(),
  maxDuration: queryInt().optional(),
  /** File type ids (the spec's 1-based indexes), comma-joined. */
  fileTypes: idList().optional(),
  creatorIds: idList().optional(),
  showLocked: queryBool.default(true),
  showNonHaptics: queryBool.default(true),
  myFiles: queryBool.default(false),
  /** Trigger id: files that use the trigger. */
  trigger: queryId.optional(),
  /** Trigger id: files that train the trigger. */
  trainsTrigger: queryId.optional(),
  uuid: z.uuid().optional(),
  /** Accepted for compatibility; entitlements are read from the signed-in user's linked membership. */
  patreonToken: text(TEXT_LIMITS.token).optional(),
});
export type ListFilesQuery = z.input<typeof listFilesQuery>;
export const listFilesResponse = z.object({ files: z.array(audioFile), totalItems: z.number().int() });
export type ListFilesResponse = z.infer<typeof listFilesResponse>;

export const filesApi = {
  list: defineRoute({
    method: 'GET',
    path: '/files',
    tags: ['files'],
    description:
      'Files visible to the viewer, filtered, sorted and paged. With `uuid`: that one file (404 when not visible). ' +
      'Locked files come with `isLocked: true` and no audio, script or haptics URL; `showLocked=false` ' +
      "(or the viewer's hideLockedFiles setting) leaves them out. `trigger` lists files that use a trigger " +
      'without training it, `trainsTrigger` files that train it.',
    query: listFilesQuery,
    responses: { 200: listFilesResponse, 401: errorResponse, 404: errorResponse },
  }),
};
