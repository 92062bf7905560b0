import type { Message } from '@mesmer/shared/api/messages';
import { SOCKET_EVENTS } from '@mesmer/shared/api/messages';
import { MESSAGES_PAGE_SIZE } from '@mesmer/shared/domain/messaging';
import { SESSION_COOKIE } from '@mesmer/shared/domain/site';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import { createAccess, type SessionUser } from '../../platform/access.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { messagesHub } from './messages.hub.ts';
import { createMessagesService } from './messages.service.ts';

/**
 * The messaging socket (socket.io on path /socket.io, websocket only). A client emits
 * `set_thread(threadId, startingMessageId | null, token)`; after checking membership the socket
 * joins the thread's room and gets `bulk_messages`. Messages posted through the API reach the
 * thread room as `message` and each member's user room as `thread_updated`. With REDIS_URL the
 * rooms span every server process (@socket.io/redis-adapter); without Redis, or while it cannot
 * be reached at start, they stay in this process.
 */

const threadRoom = (id: number) => `thread:${id}`;
const userRoom = (id: number) => `user:${id}`;

function cookieToken(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim()) || null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

const validId = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 2_147_483_647;

/** Tries Redis for at most 2 s; answers the adapter's clients, or null (with a warning) when it is down. */
async function connectRedis(url: string, log: FastifyInstance['log']): Promise<[Redis, Redis] | null> {
  const { Redis } = await import('ioredis');
  const pub = new Redis(url, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 1 });
  const sub = pub.duplicate();
  pub.on('error', () => {});
  sub.on('error', () => {});
  try {
    await Promise.race([
      Promise.all([pub.connect(), sub.connect()]),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timed out after 2 s')), 2000).unref()),
    ]);
    // The adapter publishes without waiting: while Redis is away a failed publish is logged (at most
    // once a minute) instead of becoming an unhandled rejection; this process's sockets still get it.
    const publish = pub.publish.bind(pub);
    let warnedAt = 0;
    pub.publish = ((channel: string, message: string) =>
      publish(channel, message).catch((err: unknown) => {
        if (Date.now() - warnedAt < 60_000) return 0;
        warnedAt = Date.now();
        log.warn({ err }, 'realtime: Redis publish failed; delivering on this process only meanwhile');
        return 0;
      })) as typeof pub.publish;
    return [pub, sub];
  } catch (err) {
    log.warn({ err }, 'realtime: Redis unreachable; messages reach only sockets on this process');
    pub.disconnect();
    sub.disconnect();
    return null;
  }
}

/** Attaches the socket server to the app's HTTP server and closes it with the app. */
export async function attachRealtime(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const io = new Server(app.server, { path: '/socket.io', transports: ['websocket'], serveClient: false });
  const redis = ctx.config.redisUrl ? await connectRedis(ctx.config.redisUrl, app.log) : null;
  if (redis) {
    const { createAdapter } = await import('@socket.io/redis-adapter');
    io.adapter(createAdapter(redis[0], redis[1]));
  }

  const access = createAccess(ctx.db);
  const service = createMessagesService(ctx);
  const handshakeToken = (socket: Socket): string | null => {
    const auth = socket.handshake.auth as { token?: unknown } | undefined;
    if (typeof auth?.token === 'string' && auth.token) return auth.token;
    return cookieToken(socket.handshake.headers.cookie);
  };
  const userOf = async (token: string | null): Promise<SessionUser | null> =>
    token && token.length <= 200
      ? access.sessionUser(token, ctx.clock.now(), ctx.config.sessionIdleDays)
      : null;

  io.on('connection', (socket) => {
    ctx.metrics.openSockets.inc();
    socket.once('disconnect', () => ctx.metrics.openSockets.dec());
    // Signed in on the handshake: the user room (thread_updated) at once.
    void userOf(handshakeToken(socket))
      .then((user) => {
        if (user) socket.join(userRoom(user.id));
      })
      .catch((err: unknown) => app.log.error({ err }, 'realtime: reading the session failed'));

    socket.on(SOCKET_EVENTS.setThread, async (threadId: unknown, startingId: unknown, token: unknown) => {
      const refuse = (error: string) => socket.emit(SOCKET_EVENTS.error, { error, threadId });
      try {
        if (!validId(threadId)) return refuse('threadId: must be a thread id');
        if (startingId !== null && startingId !== undefined && !validId(startingId)) {
          return refuse('startingMessageId: must be a message id or null');
        }
        const user = await userOf(typeof token === 'string' && token ? token : handshakeToken(socket));
        if (!user) return refuse('You need to be logged in to do that.');
        const page = await service.history(user, {
          threadId,
          before: startingId ?? undefined,
          pageSize: MESSAGES_PAGE_SIZE,
        });
        for (const room of socket.rooms) if (room.startsWith('thread:')) socket.leave(room);
        socket.join([threadRoom(threadId), userRoom(user.id)]);
        socket.emit(SOCKET_EVENTS.bulkMessages, page);
      } catch (err) {
        if (err instanceof AppError) return refuse(err.message);
        app.log.error({ err }, 'realtime: set_thread failed');
        refuse('Failed to load messages.');
      }
    });
  });

  messagesHub(ctx).deliver = (message: Message, memberIds: number[]) => {
    io.to(threadRoom(message.threadId)).emit(SOCKET_EVENTS.message, message);
    if (memberIds.length > 0) {
      io.to(memberIds.map(userRoom)).emit(SOCKET_EVENTS.threadUpdated, {
        threadId: message.threadId,
        mostRecentMessage: message.id,
      });
    }
  };

  messagesHub(ctx).disconnectUser = (userId: number) => io.in(userRoom(userId)).disconnectSockets(true);

  // Sockets end before the HTTP server closes (Fastify closes the server itself, so not io.close()).
  app.addHook('preClose', async () => {
    messagesHub(ctx).deliver = null;
    messagesHub(ctx).disconnectUser = null;
    io.disconnectSockets(true);
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    if (redis) await Promise.all(redis.map((r) => r.quit().catch(() => r.disconnect())));
  });
}
