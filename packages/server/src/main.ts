import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type App, buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DatabaseLockedError } from './db/client.ts';
import { seedOnStart } from './db/seed/index.ts';
import { logAccountNotices } from './db/seed/start-notices.ts';
import { analyseStoredAudio } from './modules/uploads/analyse-library.ts';

/** How long a stopping server waits for requests in flight before it cuts their connections. */
const DRAIN_MS = 10_000;

/** In the environment of the process that makes the demo library apart (makeDemoLibraryApart). */
const MAKE_DEMO_ONLY = 'MESMER_MAKE_DEMO_ONLY';

/**
 * The first start of the embedded default (no database folder yet) makes the demo library (its audio
 * generated, stored and analysed) in a process of its own, which then exits: the memory that work
 * leaves behind (PGlite's grown WebAssembly memory, the heap of the audio work) goes with it, and the
 * server idles about 70 MB smaller (decision 036). Later starts, and PostgreSQL, seed in the server.
 */
async function makeDemoLibraryApart(config: ReturnType<typeof loadConfig>) {
  if (!config.seedDemo || config.databaseUrl || fs.existsSync(path.join(config.dataDir, 'db'))) return;
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    env: { ...process.env, [MAKE_DEMO_ONLY]: '1' },
    stdio: 'inherit',
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) {
    console.error('Making the demo library failed (see above).');
    process.exit(1);
  }
}

/** The demo library's process: seeds, analyses the audio, closes the database and exits. */
async function makeDemoLibrary(config: ReturnType<typeof loadConfig>) {
  const app = await buildApp(config);
  await seedOnStart(app.ctx, app.log, app.services.auth.seedAccounts);
  const { analysed, failed } = await analyseStoredAudio(app.ctx, { log: (line) => app.log.debug(line) });
  app.log.info(`made the demo library: analysed ${analysed} files (${failed.length} failed)`);
  await app.close();
}

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  config.webDist ??= path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
  if (process.env[MAKE_DEMO_ONLY]) return makeDemoLibrary(config);
  await makeDemoLibraryApart(config);

  let app: App | undefined;
  let closing = false;
  // Stops accepting connections, answers 503 to new requests on open keep-alive connections and
  // ends the sockets, lets requests in flight finish (at most DRAIN_MS), then closes the database.
  async function shutDown(code: number) {
    if (closing) return;
    closing = true;
    const cut = setTimeout(() => {
      app?.log.warn(`requests still running after ${DRAIN_MS / 1000} s; closing their connections`);
      app?.server.closeAllConnections();
    }, DRAIN_MS);
    cut.unref();
    try {
      await app?.close();
    } finally {
      clearTimeout(cut);
      process.exit(code);
    }
  }
  // Another process removed or took the embedded database's lock: stop before writing to a folder
  // that may be someone else's (the database is left as it is, see openDatabase's close).
  const onDatabaseLockLost = (err: Error) => {
    const message = `Shutting down: the embedded database's lock was lost. ${err.message}`;
    if (app) app.log.error(message);
    else console.error(message);
    void shutDown(1);
  };

  try {
    app = await buildApp(config, { onDatabaseLockLost });
  } catch (err) {
    if (err instanceof DatabaseLockedError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  await seedOnStart(app.ctx, app.log, app.services.auth.seedAccounts);
  await logAccountNotices(app.services.auth.seedAccounts, app.log);

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      app?.log.info(`${signal} received, shutting down`);
      void shutDown(0);
    });
  }

  await app.listen({ port: config.port, host: config.host });
  console.log(`\n  ${config.siteName} is running at ${config.publicUrl}\n`);

  // The demo's generated audio gets its waveform and loudness once, in the background, one file at a
  // time. Other servers analyse nothing at start: uploads are measured as they are published, older
  // files by `npm run admin -- analyse` (a storage stat each, an S3 HEAD, is not for every start).
  if (!config.seedDemo) return;
  const log = app.log;
  void analyseStoredAudio(app.ctx, { log: (line) => log.debug(line) })
    .then(({ analysed, measured, failed }) => {
      if (analysed > 0 || measured > 0 || failed.length > 0)
        log.info(`analysed ${analysed} files, measured ${measured} (${failed.length} failed)`);
    })
    .catch((err: unknown) => log.error({ err }, 'analysing the library failed'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
