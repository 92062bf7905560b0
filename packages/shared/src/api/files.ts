import { z } from 'zod';
import {
  ATTACHMENT_KINDS,
  MAX_ATTACHMENT_BYTES,
  MAX_CUES,
  STORED_ATTACHMENT_KINDS,
} from '../domain/attachments.ts';
import {
  FILE_DESCRIPTION_MAX,
  FILE_NAME_MAX,
  FILE_TRIGGERS_MAX,
  FILE_TYPE_REQUIRED_MESSAGE,
} from '../domain/file-rules.ts';
import { FILE_TYPES } from '../domain/file-types.ts';
import { INT_MAX, TEXT_LIMITS } from '../domain/limits.ts';
import { MAX_PEAKS_PER_ANSWER, PEAK_BASE_MS } from '../domain/waveform-peaks.ts';
import { filesRoutes } from '../routes/files.ts';
import { errorResponse, id, idList, int, pagingQuery, queryBool, queryId, queryInt, text } from './common.ts';
import { defineRoute, noContent } from './contract.ts';
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
  /** Wins over the viewer's hideLockedFiles setting; without it, the setting decides (decision 008.9). */
  showLocked: queryBool.optional(),
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

/** A trigger a file uses (`trains: false`) or trains, on write. */
export const fileTriggerInput = z.object({ id, trains: z.boolean().default(false) });

const fileTriggersInput = z
  .array(fileTriggerInput)
  .max(FILE_TRIGGERS_MAX, `must list at most ${FILE_TRIGGERS_MAX} triggers`)
  .refine((list) => new Set(list.map((t) => t.id)).size === list.length, 'each trigger may appear only once');

/** A file type id (GET /api/tags); missing or null answers the spec's 'The file type tag must be set.'. */
const fileTypeInput = z
  .number({ error: FILE_TYPE_REQUIRED_MESSAGE })
  .int()
  .min(1, `must be a file type id from 1 to ${FILE_TYPES.length}`)
  .max(FILE_TYPES.length, `must be a file type id from 1 to ${FILE_TYPES.length}`);

const fileName = text(FILE_NAME_MAX).trim().min(1, 'is required');
const fileDescription = text(FILE_DESCRIPTION_MAX);
/** A membership tier id (one of the uploader's own tiers); null for a file open to everyone. */
const tierInput = text(100).min(1).nullable();

/** POST /api/files: makes a file of a finished upload (its `uuid`, from POST /api/files/upload). */
export const createFileBody = z.object({
  name: fileName,
  description: fileDescription.default(''),
  uuid: z.uuid(),
  triggers: fileTriggersInput.default([]),
  patreonTier: tierInput.optional(),
  fileType: fileTypeInput,
  /** Only the site owner (user id 1). */
  trackNumber: int(0).nullable().optional(),
  /** A date (midnight UTC) or a date and time; null or absent (no date given): now. */
  releaseDate: z
    .union([z.iso.date(), z.iso.datetime({ offset: true })])
    .nullable()
    .optional(),
  /** Defaults to public, or private for an uploader who may publish this type only privately. */
  isPublic: z.boolean().optional(),
});
export type CreateFileBody = z.input<typeof createFileBody>;

/** PUT /api/files: a field left out stays as it is. */
export const updateFileBody = z.object({
  id,
  name: fileName.optional(),
  description: fileDescription.optional(),
  /** Only the uploader (with a linked membership account) changes it; anyone else's edit keeps the tier. */
  patreonTier: tierInput.optional(),
  triggers: fileTriggersInput.optional(),
  fileType: fileTypeInput,
  isPublic: z.boolean().optional(),
});
export type UpdateFileBody = z.input<typeof updateFileBody>;

/** The multipart fields of POST /api/files/attachment, before the `file` part. */
export const attachmentFields = z.object({
  fileId: queryId,
  kind: z.enum(ATTACHMENT_KINDS),
});
export type AttachmentFields = z.input<typeof attachmentFields>;

export const uploadOptions = z.object({
  /** File type ids the form may offer. */
  fileTypes: z.array(z.number().int()),
  /** The user may publish only private files. */
  privateOnly: z.boolean(),
  /** Only the site owner sets track numbers. */
  canSetTrackNumber: z.boolean(),
  /** The user's own membership tiers, lowest first; empty without a linked membership account. */
  tiers: z.array(patreonTier),
});
export type UploadOptions = z.infer<typeof uploadOptions>;

export const fileWaveform = z.object({
  /** About 1,000 peak levels (0-1) across the track; empty until analysed. */
  peaks: z.array(z.number()),
  /** Integrated loudness, LUFS; null until analysed. */
  loudness: z.number().nullable(),
});
export type FileWaveform = z.infer<typeof fileWaveform>;

/** GET /api/files/peaks: a window of the waveform at a resolution (shared/domain/waveform-peaks.ts). */
export const filePeaksQuery = z
  .object({
    fileId: queryId,
    /** Milliseconds from the start of the track. */
    fromMs: queryInt(0),
    toMs: queryInt(1),
    /** The resolution wanted: milliseconds of audio per peak (one peak per pixel, say). */
    msPerPeak: queryInt(1),
  })
  .refine((q) => q.toMs > q.fromMs, { path: ['toMs'], message: 'must be after fromMs' });
export type FilePeaksQuery = z.input<typeof filePeaksQuery>;

export const filePeaks = z.object({
  /**
   * Milliseconds per peak of the level answered: the coarsest level (5, 20, 80, 320, … ms) at most
   * `msPerPeak`, or coarser when the window would need more than MAX_PEAKS_PER_ANSWER peaks.
   */
  msPerPeak: z.number().int(),
  /** Where the first peak starts: `fromMs` rounded down to a multiple of `msPerPeak`. */
  fromMs: z.number().int(),
  /** The track's length, milliseconds. */
  durationMs: z.number().int(),
  /** Peak levels (0-1, the loudest sample): peak i covers fromMs + i × msPerPeak onwards; none past the end. */
  peaks: z.array(z.number()),
  /** Every level's milliseconds per peak, finest first; empty when the audio could not be read. */
  levels: z.array(z.number().int()),
});
export type FilePeaks = z.infer<typeof filePeaks>;

/** A cue as stored and played (shared/domain/haptic-cues.ts). */
export const hapticCue = z.object({
  /** Milliseconds from the start. */
  time: z.number(),
  stopTime: z.number(),
  /** 0 to 1. */
  strength: z.number(),
});

/** A cue the editor saves: the rules of an uploaded cue file (shared/domain/attachments.ts checkCueFile). */
export const hapticCueInput = z
  .object({
    time: z
      .number({ error: 'must be a number of milliseconds ≥ 0' })
      .min(0, 'must be a number of milliseconds ≥ 0')
      .max(INT_MAX, `must be at most ${INT_MAX} milliseconds`),
    stopTime: z
      .number({ error: 'must be a number after time' })
      .max(INT_MAX, `must be at most ${INT_MAX} milliseconds`),
    strength: z
      .number({ error: 'must be a number from 0 to 1' })
      .min(0, 'must be a number from 0 to 1')
      .max(1, 'must be a number from 0 to 1'),
  })
  .refine((c) => c.stopTime > c.time, { path: ['stopTime'], message: 'must be a number after time' });

/** GET /api/files/cues: the file's haptic cues as the editor starts from them. */
export const fileCues = z.object({
  /** In start order; empty when the file has no haptics. */
  cues: z.array(hapticCue),
  /** The haptics' revision: raised by every save, upload (haptics or Funscript) and removal of them. */
  revision: z.number().int(),
});
export type FileCues = z.infer<typeof fileCues>;

/** PUT /api/files/cues: saves the list as the file's haptics, unless they changed since `revision`. */
export const saveCuesBody = z.object({
  fileId: id,
  /** The revision the editor started from (GET /api/files/cues, or the last save's answer). */
  revision: int(0),
  cues: z
    .array(hapticCueInput)
    .min(1, 'The cue file has no cues.')
    .max(MAX_CUES, `A cue file may have at most ${MAX_CUES} cues.`),
});
export type SaveCuesBody = z.input<typeof saveCuesBody>;
export const savedCues = z.object({ revision: z.number().int(), file: audioFile });
export type SavedCues = z.infer<typeof savedCues>;
/** 409 of PUT /api/files/cues: the haptics changed since the editor's revision; `revision` is the current one. */
export const cuesConflict = z.object({ error: z.string(), revision: z.number().int() });
export type CuesConflict = z.infer<typeof cuesConflict>;

const writeErrors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
} as const;

export const filesApi = {
  list: defineRoute(filesRoutes.list, {
    tags: ['files'],
    description:
      'Files visible to the viewer, filtered, sorted and paged. With `uuid`: that one file (404 when not visible). ' +
      'Locked files come with `isLocked: true` and no audio, script or haptics URL; `showLocked=false` ' +
      "leaves them out and `showLocked=true` keeps them; without `showLocked` the viewer's hideLockedFiles " +
      'setting decides. `trigger` lists files that use a trigger ' +
      'without training it, `trainsTrigger` files that train it.',
    query: listFilesQuery,
    responses: { 200: listFilesResponse, 401: errorResponse, 404: errorResponse },
  }),
  create: defineRoute(filesRoutes.create, {
    tags: ['files'],
    summary: 'Make a file of a finished upload',
    description:
      'Needs an upload permission: UPLOAD_ALL_FILES any type, UPLOAD_MUSIC_FILES music types (7, 9), ' +
      'UPLOAD_PRIVATE_FILES private files only (403 otherwise). `uuid` is the finished upload (404 unknown, 409 not ' +
      'finished or already made into a file). `trackNumber` only for the site owner; `patreonTier` only for an uploader ' +
      'with a linked membership account, and one of their own tiers. Triggers must exist and not be pending requests.',
    body: createFileBody,
    responses: { 200: z.object({ id: z.number().int() }), ...writeErrors, 409: errorResponse },
  }),
  update: defineRoute(filesRoutes.update, {
    tags: ['files'],
    summary: 'Edit a file',
    description:
      "By the file's uploader or holders of WRITE_ALL_FILES (403; 404 when the file is not visible). Fields left out " +
      'stay. The uploader is held to the upload rules of type and visibility; only the uploader with a linked ' +
      "membership account changes the tier, anyone else's edit keeps it. Answers the file as the editor sees it.",
    body: updateFileBody,
    responses: { 200: z.object({ file: audioFile }), ...writeErrors },
  }),
  remove: defineRoute(filesRoutes.remove, {
    tags: ['files'],
    summary: 'Delete a file',
    description:
      "By the file's uploader or holders of WRITE_ALL_FILES. Removes its audio, haptics and script and its playlist " +
      'entries (the playlists keep their other files in order).',
    query: z.object({ id: queryId }),
    responses: { 204: noContent, ...writeErrors },
  }),
  attach: defineRoute(filesRoutes.attach, {
    tags: ['files'],
    summary: 'Attach a haptic cue file, a Funscript or a script to a file',
    description:
      'multipart/form-data: fields `fileId` and `kind` (haptics: a JSON list of {time, stopTime, strength}; ' +
      'funscript: a .funscript, converted to cues (shared/domain/funscript.ts); script: UTF-8 text), then the `file` ' +
      `part, at most ${MAX_ATTACHMENT_BYTES} bytes (413). Replaces an attachment of the same kind (a Funscript ` +
      'replaces the haptics). Same permission as editing; a bad file answers 400 naming the first problem. More ' +
      'than 60 an hour answers 429 with Retry-After.',
    responses: { 200: z.object({ file: audioFile }), ...writeErrors, 413: errorResponse, 429: errorResponse },
  }),
  detach: defineRoute(filesRoutes.detach, {
    tags: ['files'],
    summary: "Remove a file's haptics or script",
    query: z.object({ fileId: queryId, kind: z.enum(STORED_ATTACHMENT_KINDS) }),
    responses: { 204: noContent, ...writeErrors },
  }),
  waveform: defineRoute(filesRoutes.waveform, {
    tags: ['files'],
    summary: "A file's waveform peaks and loudness",
    description:
      'For a file the viewer may see (404 otherwise); peaks are empty and loudness null until analysed.',
    query: z.object({ id: queryId }),
    responses: { 200: fileWaveform, 400: errorResponse, 404: errorResponse },
  }),
  peaks: defineRoute(filesRoutes.peaks, {
    tags: ['files'],
    summary: "A window of a file's waveform at a resolution (the cue editor's zoom)",
    description:
      `For those who may edit the file (401; 404 when not visible; 403 when not theirs to edit). Peaks are kept at ` +
      `${PEAK_BASE_MS} ms and every ×4 coarser level; the answer comes from the coarsest level at most \`msPerPeak\`, ` +
      `coarser when the window would hold more than ${MAX_PEAKS_PER_ANSWER} peaks. A file analysed before peaks ` +
      'were kept gets them at its first request. Cacheable (ETag, private).',
    query: filePeaksQuery,
    responses: { 200: filePeaks, 304: noContent, ...writeErrors },
  }),
  cues: defineRoute(filesRoutes.cues, {
    tags: ['files'],
    summary: "A file's haptic cues and their revision, for the cue editor",
    description: 'For those who may edit the file (401; 404 when not visible; 403 when not theirs to edit).',
    query: z.object({ fileId: queryId }),
    responses: { 200: fileCues, ...writeErrors },
  }),
  saveCues: defineRoute(filesRoutes.saveCues, {
    tags: ['files'],
    summary: "Save the cue editor's cues as the file's haptics",
    description:
      'Same permission as editing and the same checks as an uploaded cue file (400 naming the cue and field). ' +
      '`revision` is the one the editor started from: when the haptics changed since (another editor saved, a ' +
      'cue file or Funscript was uploaded, or the haptics were removed) nothing is saved and the answer is 409 ' +
      `with the current \`revision\`. Answers the new revision and the file. At most ${MAX_ATTACHMENT_BYTES} bytes (413).`,
    body: saveCuesBody,
    responses: { 200: savedCues, ...writeErrors, 409: cuesConflict, 413: errorResponse, 429: errorResponse },
  }),
  uploadOptions: defineRoute(filesRoutes.uploadOptions, {
    tags: ['files'],
    summary: 'What the upload and edit forms may offer the signed-in user',
    responses: { 200: uploadOptions, 401: errorResponse, 403: errorResponse },
  }),
};
