/**
 * The socket flood: while GET /api/health is probed every 200 ms, one client opens
 * websockets with a bogus token and emits set_thread every 20 ms, and one signed-in socket emits
 * set_thread every 20 ms (opening a new socket whenever the server closes it), for 12 s. The same
 * probes without the flood, first, are the baseline. Prints p50/p99/max of the health latency and
 * what the flooding clients got. Starts packages/server/src/main.ts (production, embedded database
 * in a temporary DATA_DIR, rate limits on). Runs by hand: npm run bench:socket-flood -w @mesmer/bench
 *
 * BENCH_SECONDS (12), BENCH_ROOT (this checkout; another checkout's root measures its server).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { io as connect, type Socket } from 'socket.io-client';
import { sleep, startBenchServer } from './server-process.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 12);
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(process.env.BENCH_ROOT ?? path.resolve(here, '..'));

/** GET /api/health every 200 ms for `ms`; answers the latencies. */
async function probe(base: string, ms: number): Promise<number[]> {
  const latencies: number[] = [];
  const end = Date.now() + ms;
  const pending: Promise<void>[] = [];
  while (Date.now() < end) {
    const started = performance.now();
    pending.push(
      fetch(`${base}/api/health`)
        .then((r) => r.arrayBuffer())
        .then(() => {
          latencies.push(performance.now() - started);
        }),
    );
    await sleep(200);
  }
  await Promise.all(pending);
  return latencies;
}

function summary(latencies: number[]): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `p50 ${at(0.5).toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms (${sorted.length} probes)`;
}

const server = await startBenchServer({ root, readyPath: '/api/health' });
const { base } = server;
const sockets: Socket[] = [];

try {
  const register = async (name: string) => {
    const res = await fetch(`${base}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: name, email: `${name}@example.test`, password: 'flood bench password' }),
    });
    const body = (await res.json()) as { token: string; user: { id: number } };
    return { token: body.token, id: body.user.id };
  };
  const abuser = await register('flooder');
  const friend = await register('friend');
  const thread = (await fetch(`${base}/api/messages/threads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${abuser.token}` },
    body: JSON.stringify({ name: null, userIds: String(friend.id) }),
  }).then((r) => r.json())) as { id: number };

  const baseline = await probe(base, seconds * 1000);

  const got = { pages: 0, errors: 0, serverCloses: 0, refusedBogus: 0, refusedSignedIn: 0 };
  const open = (token: string) => {
    const socket = connect(base, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      auth: { token },
    });
    sockets.push(socket);
    return socket;
  };
  let signedIn: Socket | null = null;
  const openSignedIn = () => {
    const socket = open(abuser.token);
    socket.on('bulk_messages', () => got.pages++);
    socket.on('error_message', () => got.errors++);
    socket.on('connect_error', () => {
      got.refusedSignedIn++;
      if (signedIn === socket) signedIn = null;
    });
    socket.on('disconnect', (reason) => {
      if (reason === 'io server disconnect') got.serverCloses++;
      if (signedIn === socket) signedIn = null;
    });
    return socket;
  };
  signedIn = openSignedIn();
  // One bogus-token client: a socket that is refused is opened again at the next tick.
  let bogus: Socket | null = null;
  const flood = setInterval(() => {
    if (!bogus || (!bogus.connected && !bogus.active)) {
      bogus?.close();
      bogus = open('bogus-token-of-the-flood');
      bogus.on('connect_error', () => got.refusedBogus++);
    }
    bogus.emit('set_thread', thread.id, null, 'bogus-token-of-the-flood');
    signedIn ??= openSignedIn();
    signedIn.emit('set_thread', thread.id, null, null);
  }, 20);
  const flooded = await probe(base, seconds * 1000);
  clearInterval(flood);

  console.log(`server: ${root === path.resolve(here, '..') ? 'this checkout' : root}`);
  console.log(`baseline, no flood:   ${summary(baseline)}`);
  console.log(`during the flood:     ${summary(flooded)}`);
  console.log(
    `flooding clients got: ${got.pages} bulk_messages, ${got.errors} error_message, ` +
      `${got.serverCloses} closed by the server, handshakes refused: ${got.refusedBogus} bogus, ${got.refusedSignedIn} signed in`,
  );
} finally {
  for (const s of sockets) s.close();
  await server.stop();
}
