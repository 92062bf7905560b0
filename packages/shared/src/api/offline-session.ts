import { z } from 'zod';
import { id, int } from './common.ts';

// Apart from the listening routes: the web player checks its offline queue with these rules, and
// loads them only when there is an offline play to check (decision 038).

/** Sessions per POST /api/session/offline call; a player offline for longer sends several. */
export const MAX_OFFLINE_SESSIONS = 50;

/** A play the player recorded while the network was down (its start call failed). */
export const offlineSession = z
  .object({
    /** The file played, from the listener's offline copy. */
    fileId: id,
    /** When the track was loaded, and when it ended or was left (ISO 8601, by the player's clock). */
    startedAt: z.iso.datetime({ offset: true }),
    endedAt: z.iso.datetime({ offset: true }),
    /** Milliseconds of the track the player actually played (seeks and pauses left out). */
    listenedMs: int(),
  })
  .refine((s) => Date.parse(s.endedAt) > Date.parse(s.startedAt), {
    path: ['endedAt'],
    message: 'must be after startedAt',
  });
export type OfflineSession = z.infer<typeof offlineSession>;

/** POST /api/session/offline */
export const offlineSessionsRequest = z.object({
  sessions: z.array(offlineSession).min(1).max(MAX_OFFLINE_SESSIONS),
});
export type OfflineSessionsRequest = z.infer<typeof offlineSessionsRequest>;
