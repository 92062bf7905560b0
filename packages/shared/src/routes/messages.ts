import type { RouteAddress } from './address.ts';

/** The addresses of messagesApi's calls (their schemas: api/messages.ts). */
export const messagesRoutes = {
  threads: { name: 'messages.threads', method: 'GET', path: '/messages/threads' },
  thread: { name: 'messages.thread', method: 'GET', path: '/messages/thread' },
  createThread: { name: 'messages.createThread', method: 'POST', path: '/messages/threads' },
  send: { name: 'messages.send', method: 'POST', path: '/messages' },
  history: { name: 'messages.history', method: 'GET', path: '/messages' },
  markRead: { name: 'messages.markRead', method: 'PUT', path: '/messages/read' },
} as const satisfies Record<string, RouteAddress>;

/** Socket.io events on path /socket.io (websocket only). */
export const SOCKET_EVENTS = {
  /** client → server: (threadId, startingMessageId | null, token). Answered with bulk_messages or error_message. */
  setThread: 'set_thread',
  /** server → client: MessagePage. */
  bulkMessages: 'bulk_messages',
  /** server → client: a new Message in the current thread; it also stands for that thread's thread_updated. */
  message: 'message',
  /**
   * server → client (user room): { threadId, mostRecentMessage } for the home banner and the list, to
   * the sockets that do not have that thread open (those get its `message` instead: one frame a socket).
   */
  threadUpdated: 'thread_updated',
  /** server → client: { error } when set_thread is refused or an event is dropped by its rate limit (decision 020). */
  error: 'error_message',
} as const;
