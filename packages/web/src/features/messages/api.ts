import { type Message, messagesApi } from '@mesmer/shared/api/messages';
import { THREADS_PAGE_SIZE } from '@mesmer/shared/domain/messaging';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../lib/api-client.ts';

/** Every cached messaging query starts with this key. */
export const MESSAGES_KEY = ['messages'] as const;

/** GET /api/messages/threads: one page of the caller's threads, newest activity first. */
export function threadsQuery(pageOffset: number, pageSize = THREADS_PAGE_SIZE) {
  return queryOptions({
    queryKey: [...MESSAGES_KEY, 'threads', pageOffset, pageSize],
    queryFn: ({ signal }) => call(messagesApi.threads, { query: { pageOffset, pageSize }, signal }),
  });
}

/** GET /api/messages/thread: one thread the caller is in. */
export function threadQuery(id: number) {
  return queryOptions({
    queryKey: [...MESSAGES_KEY, 'thread', id],
    queryFn: ({ signal }) => call(messagesApi.thread, { query: { id }, signal }),
  });
}

/** Messages by id, oldest first, each id once (later copies win: a removal replaces the text). */
export function mergeMessages(current: readonly Message[], incoming: readonly Message[]): Message[] {
  const byId = new Map<number, Message>();
  for (const m of current) byId.set(m.id, m);
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
