import type { Limit } from './rate-limit.ts';

const HOUR = 60 * 60 * 1000;

/**
 * Per-account limits on writes that store bytes or reach other people. Counted by user
 * id in the shared limiter (Redis when configured), so they hold across processes and addresses;
 * the routes' per-address limits come on top.
 */
export const ACCOUNT_LIMITS = {
  /** New chunked uploads started (the chunks of one upload count once). */
  uploadsStarted: { name: 'uploads started', max: 30, windowMs: HOUR },
  avatarUploads: { name: 'avatar uploads', max: 10, windowMs: HOUR },
  attachments: { name: 'attachments', max: 60, windowMs: HOUR },
  /** Saves from the cue editor (each stores up to 5 MB of cues). */
  cueSaves: { name: 'cue saves', max: 240, windowMs: HOUR },
  /** New friend requests sent (accepting one is not counted). */
  friendRequests: { name: 'friend requests', max: 30, windowMs: HOUR },
  /** New message threads started (reopening an existing two-person thread is not counted). */
  threadsCreated: { name: 'threads created', max: 20, windowMs: HOUR },
} as const satisfies Record<string, Limit>;
