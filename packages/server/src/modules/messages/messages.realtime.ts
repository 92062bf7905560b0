import type { IncomingMessage } from 'node:http';
import type { Message } from '@mesmer/shared/api/messages';
import { SOCKET_EVENTS } from '@mesmer/shared/api/messages';
import { MESSAGES_PAGE_SIZE } from '@mesmer/shared/domain/messaging';
import { SESSION_COOKIE } from '@mesmer/shared/domain/site';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { type ExtendedError, Server, type Socket } from 'socket.io';
import type { Config } from '../../config.ts';
import type { SessionUser } from '../../platform/access.ts';
import { clientAddressReader } from '../../platform/client-address.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import type { Metrics } from '../../platform/metrics.ts';
import { clientKey } from '../../platform/rate-limit.ts';
import type { SessionCache } from '../../platform/session-cache.ts';
import { hashToken } from '../../platform/tokens.ts';
import type { MessagesHub } from './messages.hub.ts';
import type { MessagesService } from './messages.service.ts';

/**
 * The messaging socket (socket.io on path /socket.io, websocket only; decision 020). The handshake
 * is the sign-in: a browser page of this site (Origin) with the session cookie, or any client with
 * its token (`auth.token` or `Authorization: Bearer`); anything else gets connect_error before it
 * can send an event. The socket then belongs to that session: it joins `session:<token hash>` and
 * `user:<id>`, which the code that ends sessions closes in every process, and its session is read
 * again at each event and every SESSION_CHECK_MS. A client emits `set_thread(threadId,
 * startingMessageId | null, token)`; after checking membership the socket joins the thread's room
 * and gets `bulk_messages`. Messages posted through the API reach the thread room as `message`, and
 * the members' other sockets (user room) as `thread_updated`: one frame a socket. With REDIS_URL the
 * rooms span every server process (@socket.io/redis-adapter; a message crosses Redis once, as a
 * server-side event each process delivers to its own sockets); without Redis, or while it cannot be
 * reached at start, they stay in this process.
 */

/**
 * What one client may do (docs/decisions/020). Counts are per process: with N processes an
 * account may hold N × the connections, and the limits protect each process's event loop and database.
 */
export const SOCKET_LIMITS = {
  /** Open sockets of one account. */
  connectionsPerAccount: 20,
  /** Open sockets from one address (an IPv6 /64 counts as one, as the HTTP limits do). */
  connectionsPerAddress: 50,
  /** Handshakes from one address (each may read a session): a token bucket, before any database read. */
  handshakes: { burst: 20, perSecond: 5 },
  /** Events of each kind one socket may send. */
  events: { [SOCKET_EVENTS.setThread]: { burst: 20, perSecond: 10 } } as Record<string, Bucket['rule']>,
  /** set_thread of all the sockets of one account together. */
  accountEvents: { burst: 40, perSecond: 20 },
  /** Dropped events a socket may accumulate before it is closed (refilled over time). */
  strikes: { burst: 20, perSecond: 1 },
  /** The largest packet a client may send: a set_thread is under 300 bytes. */
  maxPacketBytes: 4096,
  /** A connection that has not signed in by then is closed (socket.io's default is 45 s). */
  connectTimeoutMs: 10_000,
} as const;

/** How often every socket's session is read again (expiry, idle end, changes made without Redis). */
export const SESSION_CHECK_MS = 15_000;
/** How many sockets' sessions the periodic check reads at once. */
const SWEEP_GROUP = 200;

const TOO_MANY = 'Too many requests: slow down.';
/** Between server processes (through Redis): a message to push to the sockets of its members. */
const DELIVER_EVENT = 'deliver_message';

/** A token bucket on the app's clock. */
class Bucket {
  private tokens: number;
  private at: number;
  constructor(
    readonly rule: { burst: number; perSecond: number },
    now: number,
  ) {
    this.tokens = rule.burst;
    this.at = now;
  }
  take(now: number): boolean {
    const elapsed = Math.max(0, now - this.at) / 1000;
    this.tokens = Math.min(this.rule.burst, this.tokens + elapsed * this.rule.perSecond);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
  /** Full again (nothing taken for as long as a refill takes): safe to forget. */
  idle(now: number): boolean {
    return now - this.at >= (this.rule.burst / this.rule.perSecond) * 1000;
  }
}

/** A thread's room holds one per member: a message reaches the rooms of the members it is sent to. */
const threadRoom = (threadId: number, userId: number) => `thread:${threadId}:${userId}`;
const userRoom = (id: number) => `user:${id}`;
const sessionRoom = (tokenHash: string) => `session:${tokenHash}`;

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

/** The token a client sent on purpose: `auth.token`, or an `Authorization: Bearer` header. */
function bearerToken(socket: Socket): string | null {
  const auth = socket.handshake.auth as { token?: unknown } | undefined;
  if (typeof auth?.token === 'string' && auth.token) return auth.token;
  const header = socket.handshake.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() || null : null;
}

/**
 * Whether a browser's Origin names this site: PUBLIC_URL, or the host the request was sent to (the
 * page came from it), as HTTP writes with the cookie are judged (platform/auth.ts). Another port or
 * a sibling subdomain is another origin.
 */
function originAllowed(origin: string, req: IncomingMessage, publicUrl: string): boolean {
  if (origin === new URL(publicUrl).origin) return true;
  const host = req.headers.host;
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
}

const validId = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 2_147_483_647;

/** What a signed-in socket carries: its session, kept in this process only. */
interface Bound {
  userId: number;
  token: string;
  address: string;
  events: Map<string, Bucket>;
  strikes: Bucket;
  /** set_thread runs one at a time; a newer one waiting replaces an older one (the client moved on). */
  busy: boolean;
  queued: unknown[] | null;
}

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
export async function attachRealtime(
  app: FastifyInstance,
  {
    config,
    clock,
    metrics,
    sessions,
    messages: service,
    hub,
  }: {
    config: Config;
    clock: Clock;
    metrics: Metrics;
    sessions: SessionCache;
    messages: MessagesService;
    /** Filled in here: the services' way to the sockets. */
    hub: MessagesHub;
  },
): Promise<void> {
  const io = new Server(app.server, {
    path: '/socket.io',
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: SOCKET_LIMITS.maxPacketBytes,
    connectTimeout: SOCKET_LIMITS.connectTimeoutMs,
  });
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, app.log) : null;
  if (redis) {
    const { createAdapter } = await import('@socket.io/redis-adapter');
    io.adapter(createAdapter(redis[0], redis[1]));
  }

  const now = () => clock.now().getTime();
  const addressOf = clientAddressReader(config.trustProxy);
  const limited = config.rateLimit;
  const userOf = async (token: string): Promise<SessionUser | null> =>
    token.length <= 200 ? sessions.sessionUser(token, clock.now(), config.sessionIdleDays) : null;

  /** The session a socket signed in with, kept on the socket itself (set by the handshake). */
  const boundOf = (socket: Socket): Bound | undefined => (socket.data as { bound?: Bound }).bound;
  const perAccount = new Map<number, number>();
  const perAddress = new Map<string, number>();
  const handshakes = new Map<string, Bucket>();
  const accountEvents = new Map<number, Bucket>();
  const bucketOf = <K>(map: Map<K, Bucket>, key: K, rule: Bucket['rule']): Bucket => {
    const found = map.get(key);
    if (found) return found;
    const made = new Bucket(rule, now());
    map.set(key, made);
    return made;
  };
  const count = <K>(map: Map<K, number>, key: K, by: number) => {
    const n = (map.get(key) ?? 0) + by;
    if (n > 0) map.set(key, n);
    else map.delete(key);
  };

  // The handshake: origin, address limits, then the session; a refused client is closed at once.
  io.use((socket, next) => {
    const refuse = (message: string) => {
      next(new Error(message) as ExtendedError);
      setImmediate(() => socket.conn.close());
    };
    const req = socket.request;
    const origin = socket.handshake.headers.origin;
    const bearer = bearerToken(socket);
    if (origin !== undefined && !originAllowed(origin, req, config.publicUrl)) {
      return refuse('This site does not accept connections from that page.');
    }
    // The HTTP limits' key for the address (clientKey reads only `ip`): an IPv6 /64 is one client.
    const address = clientKey({ ip: addressOf(req) } as FastifyRequest);
    if ((perAddress.get(address) ?? 0) >= SOCKET_LIMITS.connectionsPerAddress) {
      return refuse('Too many connections from this address.');
    }
    if (limited) {
      if (!bucketOf(handshakes, address, SOCKET_LIMITS.handshakes).take(now())) return refuse(TOO_MANY);
    }
    // Without Origin (not a browser) only a token sent on purpose signs in, never a cookie alone.
    const token = bearer ?? (origin !== undefined ? cookieToken(socket.handshake.headers.cookie) : null);
    if (!token) return refuse('You need to be logged in to do that.');
    userOf(token).then(
      (user) => {
        if (!user) return refuse('You need to be logged in to do that.');
        if ((perAccount.get(user.id) ?? 0) >= SOCKET_LIMITS.connectionsPerAccount) {
          return refuse('Too many connections for this account.');
        }
        if ((perAddress.get(address) ?? 0) >= SOCKET_LIMITS.connectionsPerAddress) {
          return refuse('Too many connections from this address.');
        }
        (socket.data as { bound?: Bound }).bound = {
          userId: user.id,
          token,
          address,
          events: new Map(),
          strikes: new Bucket(SOCKET_LIMITS.strikes, now()),
          busy: false,
          queued: null,
        };
        socket.join([userRoom(user.id), sessionRoom(hashToken(token))]);
        next();
      },
      (err: unknown) => {
        app.log.error({ err }, 'realtime: reading the session failed');
        refuse('Failed to sign in.');
      },
    );
  });

  /** Drops an event with an answer; a socket that keeps sending too much is closed. */
  const drop = (socket: Socket, b: Bound, args: unknown[], error: string) => {
    const ack = args[args.length - 1];
    if (typeof ack === 'function') ack({ error });
    else socket.emit(SOCKET_EVENTS.error, { error, threadId: validId(args[0]) ? args[0] : null });
    if (!b.strikes.take(now())) socket.disconnect(true);
  };

  /** Ends the socket when its session no longer holds (signed out, expired, idle, suspended, deleted). */
  const sessionHolds = async (socket: Socket, b: Bound): Promise<SessionUser | null> => {
    const user = await userOf(b.token);
    if (user && user.id === b.userId) return user;
    socket.disconnect(true);
    return null;
  };

  async function setThread(socket: Socket, b: Bound, threadId: unknown, startingId: unknown, token: unknown) {
    const refuse = (error: string) => socket.emit(SOCKET_EVENTS.error, { error, threadId });
    try {
      if (!validId(threadId)) return refuse('threadId: must be a thread id');
      if (startingId !== null && startingId !== undefined && !validId(startingId)) {
        return refuse('startingMessageId: must be a message id or null');
      }
      // The socket acts as the session it signed in with; a token sent along may only name that one.
      if (token !== null && token !== undefined && token !== b.token) {
        return refuse('token: not the session this connection signed in with');
      }
      const user = await sessionHolds(socket, b);
      if (!user) return;
      const page = await service.history(user, {
        threadId,
        before: startingId ?? undefined,
        pageSize: MESSAGES_PAGE_SIZE,
      });
      if (socket.disconnected) return;
      for (const room of socket.rooms) if (room.startsWith('thread:')) socket.leave(room);
      socket.join(threadRoom(threadId, user.id));
      socket.emit(SOCKET_EVENTS.bulkMessages, page);
    } catch (err) {
      if (err instanceof AppError) return refuse(err.message);
      app.log.error({ err }, 'realtime: set_thread failed');
      refuse('Failed to load messages.');
    }
  }

  io.on('connection', (socket) => {
    const b = boundOf(socket) as Bound;
    metrics.openSockets.inc();
    count(perAccount, b.userId, 1);
    count(perAddress, b.address, 1);
    socket.once('disconnect', () => {
      metrics.openSockets.dec();
      count(perAccount, b.userId, -1);
      count(perAddress, b.address, -1);
      if (!perAccount.has(b.userId)) accountEvents.delete(b.userId);
    });

    // Every event passes here first: an unknown one is dropped, a known one within its limits.
    socket.use(([event, ...args], next) => {
      const rule = Object.hasOwn(SOCKET_LIMITS.events, event) ? SOCKET_LIMITS.events[event] : undefined;
      if (!rule) return drop(socket, b, args, `${String(event).slice(0, 50)}: not an event of this server`);
      if (!limited) return next();
      const mine = bucketOf(b.events, event, rule);
      const account = bucketOf(accountEvents, b.userId, SOCKET_LIMITS.accountEvents);
      if (!mine.take(now()) || !account.take(now())) return drop(socket, b, args, TOO_MANY);
      next();
    });

    socket.on(SOCKET_EVENTS.setThread, async (...args: unknown[]) => {
      if (b.busy) {
        b.queued = args;
        return;
      }
      b.busy = true;
      try {
        let current: unknown[] | null = args;
        while (current) {
          await setThread(socket, b, current[0], current[1], current[2]);
          current = b.queued;
          b.queued = null;
        }
      } finally {
        b.busy = false;
      }
    });
  });

  /** Pushes a message to this process's sockets of its members. */
  const deliverHere = (message: Message, memberIds: number[], withheldFrom: number[]) => {
    // To the members as the database has them now: a socket left in the room of a thread its user
    // no longer belongs to hears nothing more. A socket is also in its user's room (the handshake).
    const threadRooms = memberIds.map((id) => threadRoom(message.threadId, id));
    io.local.to(threadRooms).except(withheldFrom.map(userRoom)).emit(SOCKET_EVENTS.message, message);
    // One frame a socket: one with the thread open takes the message itself as the thread's update
    // (each frame is a system call; bench/README.md, "Realtime messaging").
    io.local.to(memberIds.map(userRoom)).except(threadRooms).emit(SOCKET_EVENTS.threadUpdated, {
      threadId: message.threadId,
      mostRecentMessage: message.id,
    });
  };
  // The other processes hear of a message once (one Redis publish, however many events and rooms it
  // makes) and push it to their own sockets the same way.
  if (redis) io.on(DELIVER_EVENT, deliverHere);
  hub.deliver = (message: Message, memberIds: number[], withheldFrom: number[]) => {
    if (memberIds.length === 0) return;
    deliverHere(message, memberIds, withheldFrom);
    if (redis) io.serverSideEmit(DELIVER_EVENT, message, memberIds, withheldFrom);
  };
  // Through the adapter: the sockets of every process, at once.
  hub.disconnectUser = (userId: number) => io.in(userRoom(userId)).disconnectSockets(true);
  hub.endSession = (tokenHash: string) => io.in(sessionRoom(tokenHash)).disconnectSockets(true);

  // What no call reaches: a session that expired or went idle, or ended while Redis was away.
  let checking: Promise<void> | null = null;
  async function sweep() {
    try {
      // A group at a time: the sessions of a group share one read of the session generation
      // (platform/session-cache.ts), where one socket after another would each send their own read,
      // thousands of statements every SESSION_CHECK_MS with as many sockets open.
      const open = [...io.of('/').sockets.values()];
      for (let i = 0; i < open.length; i += SWEEP_GROUP) {
        await Promise.all(
          open.slice(i, i + SWEEP_GROUP).map(async (socket) => {
            const b = boundOf(socket);
            if (b && socket.connected) await sessionHolds(socket, b);
          }),
        );
      }
      const at = now();
      for (const [address, bucket] of handshakes) if (bucket.idle(at)) handshakes.delete(address);
    } catch (err) {
      app.log.error({ err }, 'realtime: checking the sessions of the sockets failed');
    }
  }
  hub.checkSessions = () => {
    checking ??= sweep().finally(() => {
      checking = null;
    });
    return checking;
  };
  const timer = setInterval(() => void hub.checkSessions?.(), SESSION_CHECK_MS);
  timer.unref();

  // Sockets end before the HTTP server closes (Fastify closes the server itself, so not io.close()).
  app.addHook('preClose', async () => {
    clearInterval(timer);
    hub.deliver = null;
    hub.disconnectUser = null;
    hub.endSession = null;
    hub.checkSessions = null;
    io.disconnectSockets(true);
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    if (redis) await Promise.all(redis.map((r) => r.quit().catch(() => r.disconnect())));
  });
}
