import { Link, useSearchParams } from 'react-router';
import { useCurrentUser } from '../../api/auth.ts';
import { withParams } from '../../lib/search-params.ts';
import { Card, usePageTitle } from '../../ui/index.ts';
import { BlockThreadSlot } from './BlockThreadSlot.tsx';
import { ChatView } from './ChatView.tsx';
import styles from './messages.module.css';
import { useRealtimeSocket } from './realtime.ts';
import { ThreadList, useThreadUpdates } from './ThreadList.tsx';

/** The open thread from ?thread={id}, or null. */
function threadParam(value: string | null): number | null {
  const id = Number(value);
  return value && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * /messages: the thread list beside the open chat from 800 px up, one at a time below.
 * The chat closes when the URL loses ?thread.
 */
export default function MessagesPage() {
  usePageTitle('Messages');
  const { user, isLoaded } = useCurrentUser();
  const [params] = useSearchParams();
  const threadId = threadParam(params.get('thread'));
  const socket = useRealtimeSocket(Boolean(user));
  useThreadUpdates(socket);

  if (!user) {
    return (
      <Card>
        <h1>Messages</h1>
        {isLoaded ? (
          <p>
            <Link to="/login">Log in</Link> to see your messages.
          </p>
        ) : null}
      </Card>
    );
  }
  const closeTo = `?${withParams(params, { thread: null })}`;
  return (
    <div className={styles.messages} data-chat-open={threadId ? 'true' : 'false'}>
      <Card className={styles.listPane}>
        <ThreadList selectedId={threadId} />
      </Card>
      <Card className={styles.chatPane}>
        {threadId ? (
          <ChatView
            key={threadId}
            threadId={threadId}
            socket={socket}
            closeTo={closeTo}
            renderBlockAction={(thread) => <BlockThreadSlot thread={thread} />}
          />
        ) : (
          <p className={styles.pick}>Select a conversation to read it.</p>
        )}
      </Card>
    </div>
  );
}
