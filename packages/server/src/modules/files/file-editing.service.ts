import { randomBytes } from 'node:crypto';
import type {
  AudioFile,
  createFileBody,
  FileCues,
  FileWaveform,
  SavedCues,
  saveCuesBody,
  UploadOptions,
  updateFileBody,
} from '@mesmer/shared/api/files';
import {
  ATTACHMENT_TOO_LARGE_MESSAGE,
  type AttachmentKind,
  type Checked,
  checkCueFile,
  checkScript,
  decodeUtf8,
  MAX_ATTACHMENT_BYTES,
  parseJson,
  type StoredAttachmentKind,
  storedKindOf,
} from '@mesmer/shared/domain/attachments';
import {
  canSetTier,
  canSetTrackNumber,
  defaultVisibility,
  editFollowsUploadRules,
  mayPublishAs,
  uploadScope,
} from '@mesmer/shared/domain/file-rules';
import { funscriptToCues } from '@mesmer/shared/domain/funscript';
import { parseHapticCues } from '@mesmer/shared/domain/haptic-cues';
import { SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import type { z } from 'zod';
import { type Db, withTransaction } from '../../db/client.ts';
import {
  type Access,
  requirePermission,
  requireUser,
  type SessionUser,
  type Viewer,
} from '../../platform/access.ts';
import { ACCOUNT_LIMITS } from '../../platform/account-limits.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError, BadRequest, Conflict, Forbidden, NotFound } from '../../platform/errors.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import type { Storage } from '../../platform/storage.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { createFileEditingRepo, type EditableFile } from './file-editing.repo.ts';
import type { FilesService } from './files.service.ts';

const NO_UPLOAD_PERMISSION = 'You do not have permission to upload files.';
const mayUpload = (user: SessionUser) => uploadScope(user) !== null;

class PayloadTooLarge extends AppError {
  constructor(message: string) {
    super(413, message);
  }
}

/** Why `user` may not publish a file of that type and visibility. */
function publishRefusal(user: SessionUser, fileType: number): Forbidden {
  return mayPublishAs(user, { fileType, isPublic: false })
    ? new Forbidden('isPublic: you may publish files of this type only privately.')
    : new Forbidden('fileType: you may not upload files of this type.');
}

/**
 * A save of the cue editor over haptics that changed since its `revision` (another editor saved, an
 * upload or a removal): nothing was saved; `revision` is the current one. The route answers it 409.
 */
export class CuesChanged extends Conflict {
  constructor(readonly revision: number) {
    super(
      'The cues were changed since you opened them (another editor saved, or a cue file was uploaded or removed). Nothing was saved.',
    );
  }
}

/**
 * The stored bytes of an attachment, checked (and a Funscript converted to cues). A cue list is
 * stored as JSON of {time, stopTime, strength} in start order, whichever way it came.
 */
function checkAttachment(kind: AttachmentKind, bytes: Buffer): Checked<string> {
  if (kind === 'script') return checkScript(bytes);
  const text = decodeUtf8(bytes);
  if (!text.ok) return text;
  const json = parseJson(text.value);
  if (!json.ok) return json;
  const cues = kind === 'funscript' ? funscriptToCues(json.value) : checkCueFile(json.value);
  return cues.ok ? { ok: true, value: JSON.stringify(cues.value) } : cues;
}

/** files.audio_type holds the MIME type of the audio; an upload knows its format. */
const AUDIO_MIME_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  wav: 'audio/wav',
  flac: 'audio/flac',
};

/**
 * Where an attachment is stored. Haptics get a new key at every change: their signed link changes
 * with them, so no one plays cues a cache kept, and a save that loses the revision race (saveCues)
 * never wrote over the winner's bytes.
 */
const ATTACHMENT_KEYS: Record<StoredAttachmentKind, (uuid: string) => string> = {
  haptics: (uuid) => `haptics/${uuid}-${randomBytes(6).toString('hex')}.json`,
  script: (uuid) => `scripts/${uuid}.txt`,
};

const readText = async (storage: Storage, key: string): Promise<string> => {
  const parts: Buffer[] = [];
  for await (const part of storage.createReadStream(key)) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
};

/**
 * Creating, editing and deleting files and their attachments; the reads are
 * files.service.ts. Rules come from shared/domain/file-rules.ts, so the web offers what this allows.
 */
export type FileEditingService = ReturnType<typeof createFileEditingService>;

export function createFileEditingService({
  db,
  clock,
  limiter,
  access,
  storage,
  uploads,
  files,
}: {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  access: Access;
  storage: Storage;
  uploads: UploadsService;
  files: FilesService;
}) {
  const repo = createFileEditingRepo(db);

  // Media goes inside the transaction: if storage fails, the row stays and the delete can be retried
  // (deleting a key twice is harmless), instead of a row gone and bytes left behind.
  async function deleteWithMedia(file: {
    id: number;
    audioKey: string;
    hapticsKey: string | null;
    scriptKey: string | null;
    peaksKey: string | null;
  }) {
    await withTransaction(db, async (tx) => {
      await createFileEditingRepo(tx).delete(file.id);
      for (const key of [file.audioKey, file.hapticsKey, file.scriptKey, file.peaksKey]) {
        if (key) await storage.delete(key);
      }
    });
  }

  /** The file when `user` may edit it: 404 when they may not see it, 403 when they may not edit it. */
  async function editableBy(user: SessionUser | null, id: number) {
    const editor = requireUser(user);
    const viewer = await access.viewer(editor);
    const file = await repo.editable(id);
    if (!file || !(await access.files.visible(viewer, [id])).has(id)) throw new NotFound('File not found.');
    access.files.requireEditable(editor, file);
    return { editor, viewer, file };
  }

  /** A tier the uploader may lock a file to: 403 without a linked account, 400 not one of theirs. */
  async function checkTier(uploader: SessionUser, file: EditableFile | null, tierId: string) {
    const own = await repo.tiersOf(uploader.id);
    if (!canSetTier(uploader, file, own.length > 0)) {
      throw new Forbidden('patreonTier: link a membership account to lock files to a tier.');
    }
    if (!own.some((t) => t.id === tierId))
      throw new BadRequest('patreonTier', 'not one of your membership tiers.');
  }

  async function checkTriggers(links: { id: number }[]) {
    const usable = await repo.usableTriggerIds(links.map((t) => t.id));
    const unknown = links.find((t) => !usable.has(t.id));
    if (unknown) throw new BadRequest('triggers', `there is no trigger with id ${unknown.id}.`);
  }

  async function presented(viewer: Viewer, id: number): Promise<AudioFile> {
    const [file] = await files.visibleByIds(viewer, [id]);
    if (!file) throw new NotFound('File not found.');
    return file;
  }

  /**
   * Stores `json` (checked cues) as the file's haptics under a new key and raises their revision when
   * it is still `expected` (any when null); the replaced bytes go. Null when the revision moved on:
   * the new bytes go again and nothing changed.
   */
  async function replaceHapticsWith(file: EditableFile, json: string, expected: number | null) {
    const key = ATTACHMENT_KEYS.haptics(file.uuid);
    await storage.put(key, Buffer.from(json, 'utf8'));
    const replaced = await repo.replaceHaptics(file.id, key, expected);
    if (!replaced) {
      await storage.delete(key);
      return null;
    }
    if (replaced.previousKey && replaced.previousKey !== key) await storage.delete(replaced.previousKey);
    return replaced;
  }

  return {
    /** The file when `user` may edit it: 401, 404 when they may not see it, 403 when they may not edit it. */
    editable: editableBy,

    async uploadOptions(user: SessionUser | null): Promise<UploadOptions> {
      const signedIn = requireUser(user);
      const scope = uploadScope(signedIn);
      if (!scope) throw new Forbidden(NO_UPLOAD_PERMISSION);
      return {
        ...scope,
        canSetTrackNumber: canSetTrackNumber(signedIn),
        tiers: await repo.tiersOf(signedIn.id),
      };
    },

    async create(user: SessionUser | null, input: z.output<typeof createFileBody>): Promise<{ id: number }> {
      const uploader = requirePermission(user, mayUpload, NO_UPLOAD_PERMISSION);
      const isPublic = input.isPublic ?? defaultVisibility(uploader, input.fileType);
      if (!mayPublishAs(uploader, { fileType: input.fileType, isPublic })) {
        throw publishRefusal(uploader, input.fileType);
      }
      const trackNumber = input.trackNumber ?? null;
      if (trackNumber !== null) {
        requirePermission(
          uploader,
          canSetTrackNumber,
          'trackNumber: only the site owner sets track numbers.',
        );
      }
      const tierId = input.patreonTier ?? null;
      if (tierId !== null) await checkTier(uploader, null, tierId);
      await checkTriggers(input.triggers);
      // `input.uuid` is the client's handle of its own upload; the file takes the server's id.
      const upload = await uploads.readyUpload(uploader, input.uuid);
      if (await repo.uuidTaken(upload.id)) {
        // A file was made of it and the upload row outlived it (a crash between the two).
        await uploads.forget(upload.id);
        throw new Conflict('A file was already made from this upload.');
      }
      const id = await withTransaction(db, async (tx) => {
        const txRepo = createFileEditingRepo(tx);
        const fileId = await txRepo.insert({
          uuid: upload.id,
          name: input.name,
          description: input.description,
          fileType: input.fileType,
          trackNumber,
          releaseDate: input.releaseDate ? new Date(input.releaseDate) : clock.now(),
          isPublic,
          duration: upload.duration,
          audioKey: upload.audioKey,
          audioType: AUDIO_MIME_TYPES[upload.audioType] ?? upload.audioType,
          // 0: an upload from before sizes were kept (the library analysis measures it).
          audioSize: upload.size > 0 ? upload.size : null,
          waveform: upload.waveform,
          loudness: upload.loudness,
          peaksKey: upload.peaksKey,
          authorId: uploader.id,
          uploaderId: uploader.id,
          userUploaded: uploader.id !== SITE_OWNER_ID,
        });
        await txRepo.replaceTier(fileId, tierId);
        await txRepo.replaceTriggers(fileId, input.triggers);
        return fileId;
      });
      await uploads.forget(upload.id);
      return { id };
    },

    async update(
      user: SessionUser | null,
      input: z.output<typeof updateFileBody>,
    ): Promise<{ file: AudioFile }> {
      const { editor, viewer, file } = await editableBy(user, input.id);
      const isUploader = editor.id === file.uploaderId;
      const isPublic = input.isPublic ?? file.isPublic;
      if (
        isUploader &&
        editFollowsUploadRules(editor) &&
        !mayPublishAs(editor, { fileType: input.fileType, isPublic })
      ) {
        throw publishRefusal(editor, input.fileType);
      }
      // Only the uploader sets the tier; anyone else's edit keeps it (spec section 6).
      const changesTier = isUploader && input.patreonTier !== undefined;
      if (changesTier && typeof input.patreonTier === 'string')
        await checkTier(editor, file, input.patreonTier);
      if (input.triggers) await checkTriggers(input.triggers);
      await withTransaction(db, async (tx) => {
        const txRepo = createFileEditingRepo(tx);
        await txRepo.updateFields(file.id, {
          name: input.name,
          description: input.description,
          fileType: input.fileType,
          isPublic: input.isPublic,
        });
        if (changesTier) await txRepo.replaceTier(file.id, input.patreonTier ?? null);
        if (input.triggers) await txRepo.replaceTriggers(file.id, input.triggers);
      });
      return { file: await presented(viewer, file.id) };
    },

    /** Deletes the row (playlist entries and links go with it), then its stored media. */
    async remove(user: SessionUser | null, id: number): Promise<void> {
      const { file } = await editableBy(user, id);
      await deleteWithMedia(file);
    },

    /** Every file `userId` authored or uploaded, with its media (an account being deleted). */
    async removeAllOf(userId: number): Promise<void> {
      for (const file of await repo.ownedBy(userId)) await deleteWithMedia(file);
    },

    /** Stores a checked attachment (a Funscript as cues) and saves its key on the file. */
    async attach(
      user: SessionUser | null,
      input: { fileId: number; kind: AttachmentKind },
      bytes: Buffer,
    ): Promise<{ file: AudioFile }> {
      const { viewer, file } = await editableBy(user, input.fileId);
      await limiter.consume(ACCOUNT_LIMITS.attachments, String(viewer.id));
      if (bytes.length > MAX_ATTACHMENT_BYTES) throw new PayloadTooLarge(ATTACHMENT_TOO_LARGE_MESSAGE);
      if (bytes.length === 0) throw new BadRequest('file', 'the file is empty.');
      const checked = checkAttachment(input.kind, bytes);
      if (!checked.ok) throw new BadRequest('file', checked.error);
      if (storedKindOf(input.kind) === 'haptics') {
        // An upload replaces whatever is there, and raises the revision an editor started from.
        if (!(await replaceHapticsWith(file, checked.value, null))) throw new NotFound('File not found.');
        return { file: await presented(viewer, file.id) };
      }
      const key = ATTACHMENT_KEYS.script(file.uuid);
      await storage.put(key, Buffer.from(checked.value, 'utf8'));
      await repo.setScriptKey(file.id, key);
      if (file.scriptKey && file.scriptKey !== key) await storage.delete(file.scriptKey);
      return { file: await presented(viewer, file.id) };
    },

    /** Removes the file's haptics or script (nothing to do when it has none). */
    async detach(
      user: SessionUser | null,
      input: { fileId: number; kind: StoredAttachmentKind },
    ): Promise<void> {
      const { file } = await editableBy(user, input.fileId);
      const key = input.kind === 'haptics' ? file.hapticsKey : file.scriptKey;
      if (!key) return;
      if (input.kind === 'haptics') {
        const replaced = await repo.replaceHaptics(file.id, null, null);
        if (replaced?.previousKey) await storage.delete(replaced.previousKey);
        return;
      }
      await repo.setScriptKey(file.id, null);
      await storage.delete(key);
    },

    /** The file's haptic cues in start order (none without haptics) and their revision, for the cue editor. */
    async cues(user: SessionUser | null, fileId: number): Promise<FileCues> {
      const { file } = await editableBy(user, fileId);
      let haptics: { key: string | null; revision: number } | null = {
        key: file.hapticsKey,
        revision: file.hapticsRevision,
      };
      // A save between reading the row and the bytes deletes the bytes read: read both again.
      for (let attempt = 0; attempt < 3 && haptics; attempt++) {
        if (!haptics.key) return { cues: [], revision: haptics.revision };
        const text = await readText(storage, haptics.key).catch(() => null);
        if (text !== null) {
          const json = parseJson(text);
          return { cues: json.ok ? parseHapticCues(json.value) : [], revision: haptics.revision };
        }
        haptics = await repo.haptics(file.id);
      }
      if (!haptics) throw new NotFound('File not found.');
      throw new Error(`The haptics of file ${file.id} are not in storage.`);
    },

    /**
     * Saves the cue editor's list as the file's haptics, checked as an uploaded cue file is, unless
     * the haptics changed since `input.revision` (CuesChanged, nothing saved).
     */
    async saveCues(user: SessionUser | null, input: z.output<typeof saveCuesBody>): Promise<SavedCues> {
      const { viewer, file } = await editableBy(user, input.fileId);
      await limiter.consume(ACCOUNT_LIMITS.cueSaves, String(viewer.id));
      const checked = checkCueFile(input.cues);
      if (!checked.ok) throw new BadRequest('cues', checked.error);
      const json = JSON.stringify(checked.value);
      if (Buffer.byteLength(json) > MAX_ATTACHMENT_BYTES)
        throw new PayloadTooLarge(ATTACHMENT_TOO_LARGE_MESSAGE);
      // Seen already: no bytes written for a save that cannot win.
      if (file.hapticsRevision !== input.revision) throw new CuesChanged(file.hapticsRevision);
      const saved = await replaceHapticsWith(file, json, input.revision);
      if (!saved) {
        const now = await repo.haptics(file.id);
        if (!now) throw new NotFound('File not found.');
        throw new CuesChanged(now.revision);
      }
      return { revision: saved.revision, file: await presented(viewer, file.id) };
    },

    async waveform(user: SessionUser | null, id: number): Promise<FileWaveform> {
      const viewer = await access.viewer(user);
      const row = (await access.files.visible(viewer, [id])).has(id) ? await repo.waveform(id) : null;
      if (!row) throw new NotFound('File not found.');
      return { peaks: row.peaks ?? [], loudness: row.loudness };
    },
  };
}
