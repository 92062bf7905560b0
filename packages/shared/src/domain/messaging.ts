/** Messaging limits and rules both sides use (spec accounts-community §3, §4, §9). */

/** The longest message, in characters after trimming. */
export const MESSAGE_MAX_LENGTH = 2000;

/** Threads per page on the messages screen (the spec's named constant, 16). */
export const THREADS_PAGE_SIZE = 16;

/** The largest threads page the API hands out. */
export const THREADS_PAGE_SIZE_MAX = 50;

/** Messages per page of history (set_thread's bulk_messages and GET /api/messages). */
export const MESSAGES_PAGE_SIZE = 30;

/** The largest history page the API hands out. */
export const MESSAGES_PAGE_SIZE_MAX = 100;

/** The most people in one thread, the creator included. */
export const THREAD_MAX_MEMBERS = 20;

/** Messages one user may send per minute (429 with Retry-After beyond it). */
export const MESSAGES_PER_MINUTE = 30;

/** Unread when the thread's newest message is later than what the member has read (0 = none yet). */
export function isThreadUnread(thread: { mostRecentMessage: number; lastRead: number }): boolean {
  return thread.mostRecentMessage > thread.lastRead;
}

/** The home banner shows when any thread is unread. */
export function hasUnreadThreads(
  threads: readonly { mostRecentMessage: number; lastRead: number }[],
): boolean {
  return threads.some(isThreadUnread);
}
