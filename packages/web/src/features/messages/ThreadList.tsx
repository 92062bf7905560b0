import type { Thread } from '@mesmer/shared/api/messages';
import { isThreadUnread, THREADS_PAGE_SIZE } from '@mesmer/shared/domain/messaging';
import { SOCKET_EVENTS } from '@mesmer/shared/routes/messages';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Socket } from 'socket.io-client';
import { messageKeys, threadsQuery } from '../../api/messages.ts';
import { withParams } from '../../lib/search-params.ts';
import { usePageParam } from '../../lib/usePageParam.ts';
import { Avatar, EmptyState, ErrorState, LoadingState, Pagination, SectionHeader } from '../../ui/index.ts';
import styles from './messages.module.css';

export const EMPTY_THREADS_TEXT = "Start a conversation by clicking the ... icon on someone's profile!";

/** A thread's picture: a group badge with the other-user count, else the other person ('?' without a picture). */
function ThreadAvatar({ thread }: { thread: Thread }) {
  if (thread.isGroup) {
    return (
      <span className={styles.groupBadge} role="img" aria-label={`Group of ${thread.users.length} others`}>
        <Users size={16} aria-hidden />
        {thread.users.length}
      </span>
    );
  }
  return <Avatar name={null} imageURL={thread.users[0]?.imageURL} size={40} />;
}

/**
 * Refetches the messaging lists whenever a thread the user is in gets a message: thread_updated, or
 * the message itself when this socket has that thread open (the server sends one of the two).
 */
export function useThreadUpdates(socket: Socket | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!socket) return;
    const onUpdate = () => queryClient.invalidateQueries({ queryKey: messageKeys.threads() });
    socket.on(SOCKET_EVENTS.threadUpdated, onUpdate);
    socket.on(SOCKET_EVENTS.message, onUpdate);
    return () => {
      socket.off(SOCKET_EVENTS.threadUpdated, onUpdate);
      socket.off(SOCKET_EVENTS.message, onUpdate);
    };
  }, [socket, queryClient]);
}

/** The thread list titled Messages: paged at 16, 'New!' on unread threads, the open one marked. */
export function ThreadList({ selectedId }: { selectedId: number | null }) {
  const [params] = useSearchParams();
  const [pageOffset, setPageOffset] = usePageParam('page', THREADS_PAGE_SIZE);
  const { data, isPending, isError, refetch } = useQuery({
    ...threadsQuery(pageOffset),
    placeholderData: keepPreviousData,
  });
  return (
    <nav aria-labelledby="messages-title" className={styles.threadList}>
      <SectionHeader as="h1" title={<span id="messages-title">Messages</span>} />
      {isPending ? (
        <LoadingState label="Loading threads" />
      ) : isError ? (
        <ErrorState message="Failed to load messages." onRetry={() => refetch()} />
      ) : data.threads.length === 0 ? (
        <EmptyState>{EMPTY_THREADS_TEXT}</EmptyState>
      ) : (
        <>
          <ul className={styles.threads} aria-label="Threads">
            {data.threads.map((t) => {
              const unread = isThreadUnread(t);
              return (
                <li key={t.id}>
                  <Link
                    className={styles.threadItem}
                    to={{ search: `?${withParams(params, { thread: String(t.id) })}` }}
                    aria-current={t.id === selectedId ? 'page' : undefined}
                  >
                    <ThreadAvatar thread={t} />
                    <span className={styles.threadName}>{t.name}</span>
                    {unread && <span className={styles.newMarker}>New!</span>}
                  </Link>
                </li>
              );
            })}
          </ul>
          <Pagination
            pageOffset={pageOffset}
            pageSize={THREADS_PAGE_SIZE}
            totalItems={data.totalItems}
            onChange={setPageOffset}
          />
        </>
      )}
    </nav>
  );
}
