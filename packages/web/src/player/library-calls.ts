/**
 * What the player reads from the library itself: a track's loudness and peak (for
 * normalisation), its waveform (the seek bar) and a short awakener (for the wake-up button).
 */
import { filesApi } from '@mesmer/shared/api/files';
import { AWAKENER_TYPE_ID } from '@mesmer/shared/domain/file-types';
import { peakLevel } from '@mesmer/shared/domain/loudness';
import { isPlayable } from '@mesmer/shared/domain/player-queue';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, call } from '../lib/api-client.ts';
import type { PlayerTrack } from './types.ts';

/**
 * GET /api/files/waveform?id=: the stored peaks (empty until analysed) and loudness, or null when
 * the file is gone. The same key and answer as the file page's query, so the two share the cache.
 */
export function waveformQuery(fileId: number) {
  return queryOptions({
    queryKey: ['files', 'waveform', fileId],
    queryFn: async ({ signal }) => {
      try {
        return await call(filesApi.waveform, { query: { id: fileId }, signal });
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    staleTime: 10 * 60_000,
  });
}

export interface TrackLoudness {
  /** Integrated loudness, LUFS; null until analysed. */
  loudness: number | null;
  /** The highest stored waveform peak (0-1), or null. */
  peak: number | null;
}

export interface LibraryCalls {
  loudness(fileId: number): Promise<TrackLoudness>;
  /** A short playable awakener, or null when the library has none for this listener. */
  awakener(): Promise<PlayerTrack | null>;
}

/** Awakener-like names, preferred among the awakener files. */
const AWAKENER_NAME = /awaken|wake/i;

/** The awakener to play: the shortest playable one with a waking name, else the shortest playable one. */
export function pickAwakener(files: readonly PlayerTrack[]): PlayerTrack | null {
  const playable = files.filter(isPlayable).sort((a, b) => a.duration - b.duration);
  return playable.find((f) => AWAKENER_NAME.test(f.name)) ?? playable[0] ?? null;
}

export const libraryCalls: LibraryCalls = {
  async loudness(fileId) {
    const { peaks, loudness } = await call(filesApi.waveform, { query: { id: fileId } });
    return { loudness, peak: peakLevel(peaks) };
  },
  async awakener() {
    const { files } = await call(filesApi.list, {
      query: {
        fileTypes: [AWAKENER_TYPE_ID],
        sortType: 'duration',
        sortDirection: 'asc',
        showLocked: false,
        pageSize: 20,
      },
    });
    const byType = pickAwakener(files);
    if (byType) return byType;
    const named = await call(filesApi.list, {
      query: {
        nameQuery: 'wake',
        sortType: 'duration',
        sortDirection: 'asc',
        showLocked: false,
        pageSize: 20,
      },
    });
    return pickAwakener(named.files);
  },
};
