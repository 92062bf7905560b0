import type { AudioFile } from '@mesmer/shared/api/files';
import type { EndSessionResponse } from '@mesmer/shared/api/listening';
import type { SelfUser } from '@mesmer/shared/api/users';
import type { QueuePlan } from '@mesmer/shared/domain/player-queue';

/** A queued file; `disabled` ones stay in the queue but are skipped. */
export type PlayerTrack = AudioFile & { disabled?: boolean };

export interface PlayerPlaylist {
  id: number;
  uuid: string;
  name: string;
}

/** The training-plan day a queue comes from. */
export interface PlayerPlan extends QueuePlan {
  uuid: string;
  name: string;
  /** The listener's 1-based position in the plan when playing started, if the page knows it. */
  position?: number;
}

/**
 * What the player needs from the rest of the app (the account, the library, training plans).
 * The app passes it in when it attaches the player, so the player imports no feature.
 */
export interface PlayerServices {
  /** The signed-in listener, or null for a visitor. */
  currentUser(): Pick<SelfUser, 'lovenseSettings'> | null;
  /** A session end earned points: show the new totals. */
  pointsEarned(result: EndSessionResponse): void;
  /** The file with a freshly signed audio URL; null when it is gone or hidden. */
  fetchFile(uuid: string): Promise<PlayerTrack | null>;
  /** The signed-in listener's saved position in the plan (1-based). */
  planPosition(plan: PlayerPlan): Promise<number>;
  /** Saves the signed-in listener's position in the plan. */
  savePlanPosition(plan: PlayerPlan, position: number): Promise<void>;
}

/** A toast (the ui's `toast`). */
export type Notify = (tone: 'success' | 'error' | 'info', title: string, message?: string) => void;
