import type { Message } from '@mesmer/shared/api/messages';

/** Where the service hands new messages to the realtime layer (messages.realtime.ts sets `deliver`). */
export interface MessagesHub {
  /**
   * `memberIds`: the members to tell (thread_updated); `withheldFrom`: members who blocked the
   * sender, whose sockets get nothing of it, not even in the thread's room.
   */
  deliver: ((message: Message, memberIds: number[], withheldFrom: number[]) => void) | null;
  /**
   * Closes every socket of a user, in every process: whatever ends all of their sessions
   * (suspension, sign-out everywhere, a password change or reset, account deletion).
   */
  disconnectUser: ((userId: number) => void) | null;
  /** Closes the sockets opened with one session (by its token hash), in every process: sign-out. */
  endSession: ((tokenHash: string) => void) | null;
  /** Re-reads the session of every socket of this process now (it also runs on a timer). */
  checkSessions: (() => Promise<void>) | null;
}

/**
 * The one hub of an app, built by the composition root (modules/index.ts): the services that send
 * messages or end sessions and the socket server (which fills it in) meet here.
 */
export function createMessagesHub(): MessagesHub {
  return { deliver: null, disconnectUser: null, endSession: null, checkSessions: null };
}
