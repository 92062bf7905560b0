/**
 * The unsaved draft of a file's cues, kept in localStorage until saved so no work is lost to a
 * closed tab. A draft remembers the version of the saved cues it started from, so the save can
 * tell whether someone else saved meanwhile. A draft that does not parse or check (an old format,
 * a hand-edited or truncated value) is ignored, never an error.
 */
import { MAX_CUES } from '@mesmer/shared/domain/attachments';
import type { HapticCue } from '@mesmer/shared/domain/haptic-cues';
import { z } from 'zod';

export interface CueDraft {
  /** The revision of the saved cues the draft started from (the server's `revision`, 0 for none yet). */
  baseVersion: number;
  /** When the draft was last written (epoch ms). */
  savedAt: number;
  /** May be empty: the creator deleted every cue. */
  cues: HapticCue[];
}

/** The storage the draft helpers use (localStorage, or a fake in tests). */
export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const DRAFT_FORMAT = 1;

export const draftKey = (fileId: string | number): string => `mesmer:cue-draft:${fileId}`;

const draftSchema = z.object({
  format: z.literal(DRAFT_FORMAT),
  baseVersion: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  savedAt: z.number().finite().nonnegative(),
  cues: z
    .array(
      z
        .object({
          time: z.number().finite().nonnegative(),
          stopTime: z.number().finite(),
          strength: z.number().min(0).max(1),
        })
        .refine((c) => c.stopTime > c.time),
    )
    .max(MAX_CUES),
});

export function serializeDraft(draft: CueDraft): string {
  const { baseVersion, savedAt, cues } = draft;
  return JSON.stringify({
    format: DRAFT_FORMAT,
    baseVersion,
    savedAt,
    cues: cues.map(({ time, stopTime, strength }) => ({ time, stopTime, strength })),
  });
}

/** The draft in the text, or null when there is none or it is not a valid draft. */
export function parseDraft(text: string | null | undefined): CueDraft | null {
  if (!text) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = draftSchema.safeParse(data);
  if (!parsed.success) return null;
  const { baseVersion, savedAt, cues } = parsed.data;
  return { baseVersion, savedAt, cues: [...cues].sort((a, b) => a.time - b.time) };
}

/** Writes the draft; false when storage refuses (full, or disabled). */
export function saveDraft(storage: DraftStorage, fileId: string | number, draft: CueDraft): boolean {
  try {
    storage.setItem(draftKey(fileId), serializeDraft(draft));
    return true;
  } catch {
    return false;
  }
}

/** The file's draft, or null (none, unreadable storage, or an invalid draft — which is then removed). */
export function loadDraft(storage: DraftStorage, fileId: string | number): CueDraft | null {
  let text: string | null;
  try {
    text = storage.getItem(draftKey(fileId));
  } catch {
    return null;
  }
  const draft = parseDraft(text);
  if (!draft && text !== null) discardDraft(storage, fileId);
  return draft;
}

export function discardDraft(storage: DraftStorage, fileId: string | number): void {
  try {
    storage.removeItem(draftKey(fileId));
  } catch {
    // Storage unavailable: there is nothing to remove either.
  }
}
