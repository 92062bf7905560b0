/**
 * The server as `run-library.ts` measures it: the same configuration and `buildApp` as
 * packages/server/src/main.ts (read from the environment the benchmark sets: production,
 * LOG_LEVEL=warn, no demo seed, no rate limit), plus a bare JSON route to compare with.
 * BENCH_SERVERS=2 starts two identical processes sharing the port (node:cluster hands out
 * connections round-robin), as two stateless servers behind a load balancer would run.
 * Tells its parent the port once every process listens.
 */
import cluster from 'node:cluster';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';

const processes = Number(process.env.BENCH_SERVERS ?? 1);

async function serve() {
  const app = await buildApp(loadConfig());
  app.get('/api/bench/ping', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const close = async () => {
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', close);
  process.on('disconnect', close);
  return app;
}

if (processes > 1 && cluster.isPrimary) {
  let listening = 0;
  for (let i = 0; i < processes; i++) {
    // Workers listening on port 0 share one port, chosen by the primary.
    cluster.fork().on('listening', ({ port }) => {
      listening += 1;
      if (listening === processes) process.send?.({ port });
    });
  }
  process.on('disconnect', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
  });
} else {
  const app = await serve();
  if (cluster.isPrimary) {
    const address = app.server.address();
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  }
}
