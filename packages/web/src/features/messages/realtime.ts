import { SOCKET_EVENTS } from '@mesmer/shared/routes/messages';
import { useEffect, useState } from 'react';
import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';

/**
 * The messaging socket: socket.io on this host (path /socket.io), websocket only, opened on demand
 * (the Messages page or the home banner) and closed when nothing uses it any more. The client
 * library is loaded with the first use, so signed-out pages never download it.
 * The session cookie is HttpOnly, so set_thread sends a null token and the server reads the
 * session from the handshake cookie.
 */
const SOCKET_OPTIONS: Partial<ManagerOptions & SocketOptions> = {
  transports: ['websocket'],
  autoConnect: false,
  timeout: 20_000,
  reconnectionDelay: 1_000,
  reconnectionDelayMax: 5_000,
  withCredentials: true,
};

let socket: Promise<Socket> | null = null;
let users = 0;
/** The socket in use (null once released): a server-closed one reconnects only while it is. */
let live: Socket | null = null;

/**
 * The server closes a socket whose session ended (signed out, password changed, roles changed):
 * one new attempt carries the cookie as it is now; without a live session the handshake refuses it
 * (connect_error) and the socket stays closed.
 */
function reconnectAfterServerClose(s: Socket) {
  s.on('disconnect', (reason) => {
    if (reason !== 'io server disconnect') return;
    setTimeout(() => {
      if (live === s && !s.connected) s.connect();
    }, 1_000);
  });
  live = s;
  return s;
}

function acquire(): Promise<Socket> {
  socket ??= import('socket.io-client').then(({ io }) => reconnectAfterServerClose(io(SOCKET_OPTIONS)));
  users += 1;
  return socket.then((s) => {
    if (!s.connected) s.connect();
    return s;
  });
}

function release() {
  users -= 1;
  if (users <= 0 && socket) {
    users = 0;
    void socket.then((s) => s.disconnect());
    socket = null;
    live = null;
  }
}

/** The shared messaging socket while the calling component is mounted (and `enabled`). */
export function useRealtimeSocket(enabled = true): Socket | null {
  const [current, setCurrent] = useState<Socket | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let mounted = true;
    void acquire().then((s) => {
      if (mounted) setCurrent(s);
    });
    return () => {
      mounted = false;
      setCurrent(null);
      release();
    };
  }, [enabled]);
  return current;
}

/** Joins a thread's room now and after every reconnect; the server answers bulk_messages. */
export function joinThread(s: Socket, threadId: number, startingMessageId: number | null) {
  const join = () => s.emit(SOCKET_EVENTS.setThread, threadId, startingMessageId, null);
  if (s.connected) join();
  s.on('connect', join);
  return () => {
    s.off('connect', join);
  };
}
