import type { AudioFile } from '@mesmer/shared/api/files';
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
