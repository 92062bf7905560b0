import { THREADS_PAGE_SIZE } from '@mesmer/shared/domain/messaging';
import { messagesRoutes } from '@mesmer/shared/routes/messages';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';

/** Every cached messaging query starts with `all`; `threads()` covers every page of the thread list. */
export const messageKeys = {
  all: ['messages'] as const,
  threads: () => [...messageKeys.all, 'threads'] as const,
  threadsPage: (pageOffset: number, pageSize: number) =>
    [...messageKeys.threads(), pageOffset, pageSize] as const,
  thread: (id: number) => [...messageKeys.all, 'thread', id] as const,
};

/** GET /api/messages/threads: one page of the caller's threads, newest activity first. */
export function threadsQuery(pageOffset: number, pageSize = THREADS_PAGE_SIZE) {
  return queryOptions({
    queryKey: messageKeys.threadsPage(pageOffset, pageSize),
    queryFn: ({ signal }) => call(messagesRoutes.threads, { query: { pageOffset, pageSize }, signal }),
  });
}

/** GET /api/messages/thread: one thread the caller is in. */
export function threadQuery(id: number) {
  return queryOptions({
    queryKey: messageKeys.thread(id),
    queryFn: ({ signal }) => call(messagesRoutes.thread, { query: { id }, signal }),
  });
}
