import type { Message } from '@mesmer/shared/api/messages';
import type { AppContext } from '../../platform/context.ts';

/** Where the service hands new messages to the realtime layer (messages.realtime.ts sets `deliver`). */
export interface MessagesHub {
  deliver: ((message: Message, memberIds: number[]) => void) | null;
  /** Closes every socket of a user, in every process (a suspended account). */
  disconnectUser: ((userId: number) => void) | null;
}

const hubs = new WeakMap<AppContext, MessagesHub>();

/** The one hub of an app: the routes' service and the socket server meet here. */
export function messagesHub(ctx: AppContext): MessagesHub {
  let hub = hubs.get(ctx);
  if (!hub) {
    hub = { deliver: null, disconnectUser: null };
    hubs.set(ctx, hub);
  }
  return hub;
}
