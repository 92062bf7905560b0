import { hasUnreadThreads, THREADS_PAGE_SIZE_MAX } from '@mesmer/shared/domain/messaging';
import { useQuery } from '@tanstack/react-query';
import { MessageCircle } from 'lucide-react';
import { Link } from 'react-router';
import { useCurrentUser } from '../../api/auth.ts';
import { threadsQuery } from '../../api/messages.ts';
import { useDebouncedValue } from '../../lib/useDebouncedValue.ts';
import styles from './messages.module.css';
import { useRealtimeSocket } from './realtime.ts';
import { useThreadUpdates } from './ThreadList.tsx';

/** The unread check settles for this long before the banner shows or hides (spec: 50 ms). */
const BANNER_DEBOUNCE_MS = 50;

/**
 * Home page: a new-messages banner with a View action to /messages while any thread is unread
 * (the newest-active threads, as many as one call gives; refreshed on each thread_updated).
 */
export function MessagesBanner() {
  const { user } = useCurrentUser();
  const signedIn = Boolean(user);
  const socket = useRealtimeSocket(signedIn);
  useThreadUpdates(socket);
  const { data } = useQuery({ ...threadsQuery(0, THREADS_PAGE_SIZE_MAX), enabled: signedIn });
  const unread = useDebouncedValue(
    signedIn && data !== undefined && hasUnreadThreads(data.threads),
    BANNER_DEBOUNCE_MS,
  );
  if (!signedIn || !unread) return null;
  return (
    <aside className={styles.banner} aria-label="New messages">
      <MessageCircle size={20} aria-hidden />
      <p>You have new messages.</p>
      <Link className="btn btn-primary" to="/messages">
        View
      </Link>
    </aside>
  );
}
