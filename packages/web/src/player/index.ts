/**
 * What the library screens call to play something. The player capability implements it;
 * until then playing does nothing.
 */
import type { AudioFile } from '@mesmer/shared/api/files';

export interface PlayRequest {
  /** The queue, in order. Disabled entries are kept but skipped. */
  files: (AudioFile & { disabled?: boolean })[];
  /** Index into files of the track to start with. */
  startIndex: number;
  /** The playlist the queue comes from, if any. */
  playlist?: { id: number; uuid: string; name: string };
  /** The training plan and day (0-based) the queue comes from, if any. */
  plan?: { id: number; uuid: string; name: string; dayIndex: number; dayCount: number };
}

export function play(_request: PlayRequest): void {}
