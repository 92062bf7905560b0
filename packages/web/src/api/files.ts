import type { AudioFile, listFilesQuery } from '@mesmer/shared/api/files';
import type { UploadStatus } from '@mesmer/shared/api/uploads';
import { type HapticCue, parseHapticCues } from '@mesmer/shared/domain/haptic-cues';
import { filesRoutes } from '@mesmer/shared/routes/files';
import { uploadsRoutes } from '@mesmer/shared/routes/uploads';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApiError, call } from '../lib/api-client.ts';
import { isLocalCuesAddress, localCues } from './local-cues.ts';

/** GET /api/files parameters as the server reads them; left-out ones take the server's defaults. */
export type FilesParams = Partial<z.output<typeof listFilesQuery>>;

/**
 * Every files query sits under `all`: a change to a file or its attachments invalidates lists,
 * pages, scripts, waveforms and uploads at once.
 */
export const fileKeys = {
  all: ['files'] as const,
  lists: () => [...fileKeys.all, 'list'] as const,
  list: (query: FilesParams) => [...fileKeys.lists(), query] as const,
  byUuid: (uuid: string) => [...fileKeys.all, 'uuid', uuid] as const,
  script: (id: number) => [...fileKeys.all, 'script', id] as const,
  waveform: (id: number) => [...fileKeys.all, 'waveform', id] as const,
  hapticCues: (id: number, url: string | null) => [...fileKeys.all, 'haptic-cues', id, url] as const,
  uploadOptions: () => [...fileKeys.all, 'upload-options'] as const,
  uploads: () => [...fileKeys.all, 'uploads'] as const,
};

/** GET /api/files: one page of files; the previous page stays on screen while the next loads. */
export function filesQuery(query: FilesParams) {
  return queryOptions({
    queryKey: fileKeys.list(query),
    queryFn: ({ signal }) => call(filesRoutes.list, { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/files?uuid=: one file (with its audio URL when not locked), null when there is none. */
export function fileByUuidQuery(uuid: string) {
  return queryOptions({
    queryKey: fileKeys.byUuid(uuid),
    queryFn: async ({ signal }): Promise<AudioFile | null> =>
      (await call(filesRoutes.list, { query: { uuid }, signal })).files[0] ?? null,
  });
}

/**
 * GET of a file's scriptURL: the script as plain text. Keyed by file, not by its signed link (a fresh
 * signature is the same script); a change of attachment invalidates `fileKeys.all` and so this too.
 */
export function scriptQuery(file: Pick<AudioFile, 'id' | 'scriptURL'>) {
  return queryOptions({
    queryKey: fileKeys.script(file.id),
    queryFn: async ({ signal }): Promise<string> => {
      if (!file.scriptURL) throw new ApiError(404, 'This file has no script.');
      const res = await fetch(file.scriptURL, { signal, credentials: 'same-origin' });
      if (!res.ok) throw new ApiError(res.status, 'The script could not be loaded.');
      return res.text();
    },
    enabled: file.scriptURL !== null,
    staleTime: 10 * 60_000,
  });
}

/**
 * GET /api/files/waveform?id=: the stored peaks (empty until analysed) and loudness, or null when
 * the file is gone. The file page's waveform and the player's seek bar share this one entry.
 */
export function waveformQuery(fileId: number) {
  return queryOptions({
    queryKey: fileKeys.waveform(fileId),
    queryFn: async ({ signal }) => {
      try {
        return await call(filesRoutes.waveform, { query: { id: fileId }, signal });
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    staleTime: 10 * 60_000,
  });
}

/** A track's cue file (its hapticsURL, or a cue editor's draft: api/local-cues.ts); no cues when it cannot be read. */
export async function fetchHapticCues(url: string, signal?: AbortSignal): Promise<HapticCue[]> {
  if (isLocalCuesAddress(url)) return localCues(url);
  const res = await fetch(url, { credentials: 'same-origin', signal });
  return res.ok ? parseHapticCues(await res.json()) : [];
}

/** The cue file of a track with haptics, for the strip under the player's waveform. */
export function hapticCuesQuery(track: { id: number; hapticsURL: string | null }) {
  return queryOptions({
    queryKey: fileKeys.hapticCues(track.id, track.hapticsURL),
    queryFn: ({ signal }) => (track.hapticsURL ? fetchHapticCues(track.hapticsURL, signal) : []),
    enabled: track.hapticsURL !== null,
    staleTime: 10 * 60_000,
  });
}

/** GET /api/files/upload-options: the file types, tiers and flags this viewer may set. */
export const uploadOptionsQuery = queryOptions({
  queryKey: fileKeys.uploadOptions(),
  queryFn: ({ signal }) => call(filesRoutes.uploadOptions, { signal }),
  staleTime: 5 * 60_000,
});

/** While one of them is processing, the list is asked again this often. */
const PROCESSING_POLL_MS = 3000;

/** GET /api/files/uploads: the viewer's uploads not yet made into files. */
export const uploadsQuery = queryOptions({
  queryKey: fileKeys.uploads(),
  queryFn: async ({ signal }) => (await call(uploadsRoutes.list, { signal })).uploads,
  refetchInterval: (query) =>
    query.state.data?.some((u: UploadStatus) => u.state === 'processing') ? PROCESSING_POLL_MS : false,
});
