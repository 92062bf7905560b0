/**
 * What the player reads from the library itself: a track's loudness and peak (for
 * normalisation) and a short awakener (for the wake-up button). The seek bar's waveform and cues
 * are queries of api/files.ts.
 */

import { AWAKENER_TYPE_ID } from '@mesmer/shared/domain/file-types';
import { peakLevel } from '@mesmer/shared/domain/loudness';
import { isPlayable } from '@mesmer/shared/domain/player-queue';
import { filesRoutes } from '@mesmer/shared/routes/files';
import { call } from '../lib/api-client.ts';
import type { PlayerTrack } from './types.ts';

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
    const { peaks, loudness } = await call(filesRoutes.waveform, { query: { id: fileId } });
    return { loudness, peak: peakLevel(peaks) };
  },
  async awakener() {
    const { files } = await call(filesRoutes.list, {
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
    const named = await call(filesRoutes.list, {
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
