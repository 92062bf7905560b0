// Compression of a large JSON list answer (decision 042): Mesmer's onSend hook
// (platform/compression.ts: brotli q4 / gzip 6 from 1 KB, in the thread pool) against @fastify/compress
// configured to the same behaviour, with the syncThreshold the decision records (and its default when
// SYNC_THRESHOLD=default). Requests/s and latency by autocannon, br and gzip, interleaved twice.
//   npm run bench:compression [-- <seconds per run, default 8>]
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { registerCompression } from '../packages/server/src/platform/compression.ts';

const seconds = Number(process.argv[2] ?? 8);
const syncThreshold =
  process.env.SYNC_THRESHOLD === 'default' ? undefined : Number(process.env.SYNC_THRESHOLD ?? 256 * 1024);

/** A library page's worth of files, like GET /api/files?pageSize=50 (about 40 KB of JSON). */
const list = {
  total: 5000,
  files: Array.from({ length: 50 }, (_, i) => ({
    id: 1000 + i,
    uuid: `0b6f1c2e-4d1a-4c55-9a0e-${String(i).padStart(12, '0')}`,
    title: `A calm evening session number ${i} with a longer title`,
    description: `Part ${i} of a series. ${'Slow breathing and a warm voice. '.repeat(20)}`,
    author: { id: i % 7, name: `creator${i % 7}`, imageURL: `/avatars/${i % 7}-abc-small.webp` },
    tags: ['relaxing', 'sleep', `tag${i % 5}`],
    duration: 1200 + i,
    plays: 10_000 - i,
    rating: 4.5,
    createdAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
  })),
};

async function serve(mode: 'hand-made' | 'library') {
  const app = Fastify();
  if (mode === 'hand-made') registerCompression(app);
  else {
    await app.register(fastifyCompress, {
      threshold: 1024,
      encodings: ['br', 'gzip'],
      brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
      zlibOptions: { level: 6 },
      customTypes: /^(application\/json|text\/html)/,
      globalDecompression: false,
      ...(syncThreshold === undefined ? {} : { syncThreshold }),
    });
  }
  app.get('/api/files', async () => list);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return {
    app,
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/files`,
  };
}

async function run(mode: 'hand-made' | 'library', encoding: 'br' | 'gzip') {
  const { app, url } = await serve(mode);
  const res = await fetch(url, { headers: { 'accept-encoding': encoding } });
  const sentBytes = (await res.arrayBuffer()).byteLength; // fetch decodes: the JSON's length
  const result = await autocannon({
    url,
    connections: 10,
    duration: seconds,
    headers: { 'accept-encoding': encoding },
  });
  await app.close();
  return {
    mode,
    encoding,
    jsonBytes: sentBytes,
    contentEncoding: res.headers.get('content-encoding'),
    requestsPerSecond: Math.round(result.requests.average),
    latencyP50ms: result.latency.p50,
    latencyP99ms: result.latency.p99,
    bytesPerResponse: Math.round(result.throughput.average / result.requests.average),
  };
}

const rows = [];
// Interleaved, twice, so a busy neighbour on the machine weighs on both sides alike.
for (let round = 0; round < 2; round++) {
  for (const encoding of ['br', 'gzip'] as const) {
    for (const mode of ['hand-made', 'library'] as const)
      rows.push({ round, ...(await run(mode, encoding)) });
  }
}
console.table(rows);
