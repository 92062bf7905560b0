/**
 * The servers `realtime.ts` measures, one per process. `mesmer`: buildApp with the environment the
 * benchmark sets (production, PGlite in DATA_DIR or DATABASE_URL, REDIS_URL when set), users with
 * sessions and two-person threads made directly in the database (not with BENCH_SETUP=false: a
 * second process of the same PostgreSQL database, which the first one filled). `echo`: a bare socket.io server on
 * node:http that relays `send` {room, text} to the room as `message` (the baseline). Both answer
 * `{ rss }` to an IPC 'rss' message after a garbage collection (run with --expose-gc).
 */
import http from 'node:http';
import { Server } from 'socket.io';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import type { Db } from '../packages/server/src/db/client.ts';
import { authSessions, threadMembers, threads, users } from '../packages/server/src/db/schema/index.ts';
import { hashToken, newToken } from '../packages/server/src/platform/tokens.ts';

const mode = process.argv[2];
const pairs = Number(process.env.BENCH_PAIRS ?? 100);
const idle = Number(process.env.BENCH_IDLE ?? 2000);
let close: () => Promise<void>;
let port = 0;
let setup: unknown = null;

if (mode === 'echo') {
  const server = http.createServer();
  const io = new Server(server, { path: '/socket.io', transports: ['websocket'], serveClient: false });
  io.on('connection', (socket) => {
    socket.on('set_thread', (room: number) => {
      socket.join(`thread:${room}`);
      socket.emit('bulk_messages', { messages: [], startingId: 0 });
    });
    socket.on('send', (room: number, text: string) => {
      io.to(`thread:${room}`).emit('message', { threadId: room, message: text });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  close = async () => {
    io.disconnectSockets(true);
    await new Promise((resolve) => server.close(resolve));
  };
} else {
  const app = await buildApp(loadConfig());
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
  close = () => app.close();
  if (process.env.BENCH_SETUP !== 'false') setup = await fill(app.ctx.db);
}

async function fill(db: Db): Promise<{ tokens: string[]; threadIds: number[] }> {
  // Users, sessions and threads straight into the database: 2 × pairs senders, then one user for
  // each idle socket (an account may hold 20 sockets at most, decision 020).
  const made = await db
    .insert(users)
    .values(
      Array.from({ length: pairs * 2 + idle }, (_, i) => ({
        username: `rt${process.pid}_${i}`,
        email: `rt${process.pid}_${i}@example.test`,
        passwordHash: 'x',
      })),
    )
    .returning({ id: users.id });
  const tokens = made.map(() => newToken());
  const now = new Date();
  await db.insert(authSessions).values(
    made.map(({ id }, i) => ({
      tokenHash: hashToken(tokens[i] as string),
      userId: id,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + 86_400_000),
    })),
  );
  const threadIds: number[] = [];
  for (let p = 0; p < pairs; p++) {
    const [t] = await db.insert(threads).values({ name: null }).returning({ id: threads.id });
    const a = made[2 * p]?.id as number;
    const b = made[2 * p + 1]?.id as number;
    await db.insert(threadMembers).values([
      { threadId: t?.id as number, userId: a },
      { threadId: t?.id as number, userId: b },
    ]);
    threadIds.push(t?.id as number);
  }
  return { tokens, threadIds };
}

process.on('message', (msg: string) => {
  if (msg === 'rss') {
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ rss: process.memoryUsage().rss });
  }
});
process.send?.({ port, setup });
const stop = async () => {
  await close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('disconnect', stop);
