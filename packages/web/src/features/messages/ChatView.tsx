import type { Message, MessagePage, Thread } from '@mesmer/shared/api/messages';
import { MESSAGE_MAX_LENGTH, MESSAGES_PAGE_SIZE } from '@mesmer/shared/domain/messaging';
import { messagesRoutes, SOCKET_EVENTS } from '@mesmer/shared/routes/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import {
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { Link } from 'react-router';
import type { Socket } from 'socket.io-client';
import { useCurrentUser } from '../../api/auth.ts';
import { messageKeys, threadQuery } from '../../api/messages.ts';
import { call } from '../../lib/api-client.ts';
import { Avatar, Spinner, Textarea, toast } from '../../ui/index.ts';
import { mergeMessages } from './api.ts';
import { MessageText } from './MessageText.tsx';
import styles from './messages.module.css';
import { joinThread } from './realtime.ts';

/** How close to the bottom (px) still counts as reading the newest messages. */
const STICK_DISTANCE = 48;

const failedToLoad = () => toast('error', 'Failed to load messages.');

/** Whether the page is on screen (messages arriving in a background tab are not yet seen). */
function usePageVisible(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      document.addEventListener('visibilitychange', onChange);
      return () => document.removeEventListener('visibilitychange', onChange);
    },
    () => document.visibilityState !== 'hidden',
  );
}

export interface ChatViewProps {
  threadId: number;
  socket: Socket | null;
  /** Where /messages without ?thread lives (the close button). */
  closeTo: string;
  /** The block action for this thread (the moderation feature's dialog); none until it is wired in. */
  renderBlockAction?: (thread: Thread) => ReactNode;
}

/** One thread: its messages (older ones load at the top), live updates, read marks and the composer. */
export function ChatView({ threadId, socket, closeTo, renderBlockAction }: ChatViewProps) {
  const { user: me } = useCurrentUser();
  const queryClient = useQueryClient();
  const { data: thread, isError: threadFailed } = useQuery(threadQuery(threadId));
  const [messages, setMessages] = useState<Message[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [hasOlder, setHasOlder] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const listRef = useRef<HTMLOListElement>(null);
  /** Set just before older messages go in at the top, so the view stays on what the reader saw. */
  const keepPosition = useRef<{ height: number; top: number } | null>(null);
  const stickToBottom = useRef(true);
  const lastMarked = useRef(0);
  const visible = usePageVisible();

  useEffect(() => {
    if (threadFailed) failedToLoad();
  }, [threadFailed]);

  // The newest page, over REST; the socket's bulk_messages (same page) merges in by id.
  useEffect(() => {
    const controller = new AbortController();
    call(messagesRoutes.history, { query: { threadId }, signal: controller.signal })
      .then((page) => {
        setMessages((current) => mergeMessages(current, page.messages));
        setHasOlder(page.messages.length >= MESSAGES_PAGE_SIZE);
        setLoaded(true);
      })
      .catch(() => {
        if (!controller.signal.aborted) failedToLoad();
      });
    return () => controller.abort();
  }, [threadId]);

  // Live: join the room (again after each reconnect), take the bulk page and each new message.
  useEffect(() => {
    if (!socket) return;
    const onBulk = (page: MessagePage) => {
      const mine = page.messages.filter((m) => m.threadId === threadId);
      if (mine.length > 0) setMessages((current) => mergeMessages(current, mine));
    };
    const onMessage = (m: Message) => {
      if (m.threadId === threadId) setMessages((current) => mergeMessages(current, [m]));
    };
    socket.on(SOCKET_EVENTS.bulkMessages, onBulk);
    socket.on(SOCKET_EVENTS.message, onMessage);
    socket.on(SOCKET_EVENTS.error, failedToLoad);
    const leave = joinThread(socket, threadId, null);
    return () => {
      leave();
      socket.off(SOCKET_EVENTS.bulkMessages, onBulk);
      socket.off(SOCKET_EVENTS.message, onMessage);
      socket.off(SOCKET_EVENTS.error, failedToLoad);
    };
  }, [socket, threadId]);

  // Keep the reader's place when older messages arrive; follow new ones when at the bottom.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each change of the list
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    if (keepPosition.current) {
      el.scrollTop = el.scrollHeight - keepPosition.current.height + keepPosition.current.top;
      keepPosition.current = null;
    } else if (stickToBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [messages]);

  // Seen: the open thread marks its newest message read (the server never moves lastRead back).
  useEffect(() => {
    const newest = messages.at(-1)?.id ?? 0;
    if (newest <= lastMarked.current || !visible) return;
    lastMarked.current = newest;
    call(messagesRoutes.markRead, { body: { threadId, messageId: newest } })
      .then(() => queryClient.invalidateQueries({ queryKey: messageKeys.threads() }))
      .catch(() => {
        lastMarked.current = 0;
      });
  }, [messages, threadId, queryClient, visible]);

  const loadOlder = () => {
    const oldest = messages[0];
    if (!oldest || loadingOlder || !hasOlder) return;
    setLoadingOlder(true);
    call(messagesRoutes.history, { query: { threadId, before: oldest.id } })
      .then((page) => {
        const el = listRef.current;
        if (el) keepPosition.current = { height: el.scrollHeight, top: el.scrollTop };
        setMessages((current) => mergeMessages(current, page.messages));
        setHasOlder(page.messages.length >= MESSAGES_PAGE_SIZE);
      })
      .catch(failedToLoad)
      .finally(() => setLoadingOlder(false));
  };

  const onScroll = () => {
    const el = listRef.current;
    if (!el) return;
    stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_DISTANCE;
    if (el.scrollTop <= 0) loadOlder();
  };

  const onSent = (m: Message) => {
    stickToBottom.current = true;
    setMessages((current) => mergeMessages(current, [m]));
  };

  const title = thread?.name ?? 'Conversation';
  return (
    <section className={styles.chat} aria-label={`Chat: ${title}`}>
      <header className={styles.chatHeader}>
        <h2 className={styles.chatTitle}>{title}</h2>
        {thread && renderBlockAction?.(thread)}
        <Link className="icon-btn" to={closeTo} aria-label="Close chat">
          <X size={18} aria-hidden />
        </Link>
      </header>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so the keyboard can scroll the history */}
      <ol className={styles.messageList} ref={listRef} onScroll={onScroll} tabIndex={0} aria-label="Messages">
        {hasOlder && (
          <li className={styles.olderRow}>
            {loadingOlder ? (
              <Spinner size={18} label="Loading older messages" />
            ) : (
              <button type="button" className="btn btn-ghost" onClick={loadOlder}>
                Load older messages
              </button>
            )}
          </li>
        )}
        {loaded && messages.length === 0 && <li className={styles.olderRow}>No messages yet. Say hello!</li>}
        {messages.map((m) => (
          <MessageRow key={m.id} message={m} own={m.senderId === me?.id} />
        ))}
      </ol>
      {me && (
        <Composer
          threadId={threadId}
          onSent={(id, text) =>
            onSent({
              id,
              senderId: me.id,
              threadId,
              message: text,
              removed: false,
              createdAt: new Date().toISOString(),
              sender: { id: me.id, username: me.username, imageURL: me.imageURL },
            })
          }
        />
      )}
    </section>
  );
}

function MessageRow({ message, own }: { message: Message; own: boolean }) {
  const name = message.sender?.username ?? 'Deleted user';
  const time = new Date(message.createdAt);
  return (
    <li className={own ? `${styles.message} ${styles.own}` : styles.message} data-message-id={message.id}>
      <Avatar name={message.sender?.username} imageURL={message.sender?.imageURL} size={28} />
      <div className={styles.bubble}>
        <div className={styles.meta}>
          <span className={styles.sender}>{name}</span>{' '}
          <time dateTime={message.createdAt}>
            {time.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
          </time>
        </div>
        {message.removed ? (
          <p className={styles.removed}>This message was removed.</p>
        ) : (
          <p className={styles.text}>
            <MessageText text={message.message} />
          </p>
        )}
      </div>
    </li>
  );
}

/** Enter sends, Shift+Enter starts a new line; at most MESSAGE_MAX_LENGTH characters with a counter. */
function Composer({ threadId, onSent }: { threadId: number; onSent: (id: number, text: string) => void }) {
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  const send = () => {
    const text = draft.trim();
    if (!text || text.length > MESSAGE_MAX_LENGTH || sending) return;
    setSending(true);
    call(messagesRoutes.send, { body: { threadId, message: text } })
      .then(({ id }) => {
        setDraft('');
        onSent(id, text);
      })
      .catch(() => toast('error', 'Failed to send', 'The message failed to send.'))
      .finally(() => setSending(false));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };
  return (
    <form
      className={styles.composer}
      aria-label="Send a message"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <Textarea
        aria-label="Message"
        aria-describedby="message-count"
        placeholder="Write a message (Enter sends, Shift+Enter for a new line)"
        value={draft}
        maxLength={MESSAGE_MAX_LENGTH}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className={styles.composerBar}>
        <span id="message-count" className={styles.counter}>
          {draft.length}/{MESSAGE_MAX_LENGTH}
        </span>
        <button type="submit" className="btn btn-primary" disabled={sending || draft.trim() === ''}>
          {sending ? 'Sending…' : 'Send'}
        </button>
      </div>
    </form>
  );
}
