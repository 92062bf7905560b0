import type { Message } from '@mesmer/shared/api/messages';
import type { AppContext } from '../../platform/context.ts';

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

const hubs = new WeakMap<AppContext, MessagesHub>();

/** The one hub of an app: the routes' service and the socket server meet here. */
export function messagesHub(ctx: AppContext): MessagesHub {
  let hub = hubs.get(ctx);
  if (!hub) {
    hub = { deliver: null, disconnectUser: null, endSession: null, checkSessions: null };
    hubs.set(ctx, hub);
  }
  return hub;
}
