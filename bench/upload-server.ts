/**
import type { Readable } from 'node:stream';
 * The server as `upload.ts` measures it: buildApp with the environment the benchmark sets
 * (production, PGlite in DATA_DIR, media in DATA_DIR/media or in S3 when S3_* is set), plus two
 * bench-only routes: PUT /api/bench/raw streams the request body into storage in one piece
 * (what the chunked upload is compared with) and GET /api/bench/rss answers the process's
 * resident memory. Makes a Verified Creator and tells its parent the port and a session token.
 */
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { createStorage } from '../packages/server/src/platform/storage.ts';
import { createSignedInUser } from '../packages/server/src/test/factories.ts';

const config = loadConfig();
const app = await buildApp(config);
const storage = createStorage(config);
await app.register(async (raw) => {
  raw.addContentTypeParser('application/octet-stream', { bodyLimit: 400_000_000 }, (_req, payload, done) =>
    done(null, payload),
  );
  raw.put('/api/bench/raw', async (req) => {
    await storage.put('bench/raw', req.body as Readable);
    return { ok: true };
  });
});
app.get('/api/bench/rss', async () => ({ rss: process.memoryUsage().rss }));
await app.listen({ port: 0, host: '127.0.0.1' });
const { token } = await createSignedInUser(app, { username: 'benchcreator', roles: ['Verified Creator'] });
const address = app.server.address();
process.send?.({ port: typeof address === 'object' && address ? address.port : 0, token });
const close = async () => {
  await app.close();
  process.exit(0);
};
process.on('SIGTERM', close);
process.on('disconnect', close);
