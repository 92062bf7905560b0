import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { createChangedRowsReader, createGenerationsReader } from './db/library-generation.ts';
import { seedRoles } from './db/seed/roles.ts';
import { startCleanup } from './modules/cleanup/cleanup.service.ts';
import { buildServices, registerModules, type Services } from './modules/index.ts';
import { mediaRoutes } from './modules/media/media.routes.ts';
import { attachRealtime } from './modules/messages/messages.realtime.ts';
import { avatarImageRoutes } from './modules/users/avatar.routes.ts';
import { authPlugin } from './platform/auth.ts';
import { type Clock, OffsetClock, systemClock } from './platform/clock.ts';
import { registerCompression } from './platform/compression.ts';
import type { AppContext } from './platform/context.ts';
import {
  AppError,
  BadRequest,
  conflictFromDatabase,
  DATABASE_UNAVAILABLE,
  INTERNAL_ERROR,
  isDatabaseUnavailable,
  loggableError,
  validationAnswer,
} from './platform/errors.ts';
import { boundJsonBodies } from './platform/json-body.ts';
import { logRedaction, logSerializers } from './platform/log-redaction.ts';
import { createMailer, type Mailer } from './platform/mail.ts';
import { createMetrics, registerMetrics } from './platform/metrics.ts';
import { createRateLimiter, registerRateLimit, TooManyAttempts } from './platform/rate-limit.ts';
import { createReadCache } from './platform/read-cache.ts';
import { echoRequestId, requestIdGenerator } from './platform/request-id.ts';
import { responseSerializerCompiler } from './platform/response-serializer.ts';
import { registerSecurityHeaders } from './platform/security-headers.ts';
import { registerWebApp, thirdPartyOrigins } from './platform/web-app.ts';

export interface BuildOptions {
  /** An already opened database (tests); otherwise opened from config. */
  database?: Database;
  clock?: Clock;
  mailer?: Mailer;
  logger?: boolean;
  /** Where the log is written instead of stdout (tests read it). */
  logStream?: { write(line: string): void };
  /** What to do when another process takes the embedded database's lock (main.ts stops). */
  onDatabaseLockLost?: (err: Error) => void;
}

export type App = FastifyInstance & { ctx: AppContext; services: Services };

/** Believes the nearest `hops` proxies, as Fastify does for a number (its types take only a function). */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** Where Intiface Central may listen on the listener's machine: the page's only non-'self' websocket. */
const INTIFACE_ORIGINS = ['ws://127.0.0.1:*', 'ws://localhost:*'];

/** Builds the whole server: API, media, realtime and the web app. `main.ts` only starts it. */
export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            transport: config.env === 'development' ? { target: 'pino-pretty' } : undefined,
            stream: opts.logStream,
            // Secrets never reach the log, whoever logs request headers or a body, nor a URL's
            // codes and tokens in the request lines.
            redact: logRedaction,
            serializers: logSerializers,
          },
    // Only the proxies named in TRUST_PROXY may set the client address (X-Forwarded-For).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 2 * 1024 * 1024,
    genReqId: requestIdGenerator(config),
  }).withTypeProvider<ZodTypeProvider>();
  echoRequestId(app);
  // A request still running when the server starts to stop closes its connection with its answer,
  // rather than leaving it idle (keep-alive) for the stop to wait on.
  let stopping = false;
  app.addHook('preClose', async () => {
    stopping = true;
  });
  app.addHook('onSend', async (_req, reply) => {
    if (stopping) reply.header('connection', 'close');
  });
  app.setValidatorCompiler(validatorCompiler);
  // Responses are checked against their zod schema outside production; production only writes them.
  app.setSerializerCompiler(responseSerializerCompiler({ validate: config.env !== 'production' }));

  const database =
    opts.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: path.join(config.dataDir, 'db'),
      log: app.log,
      onLockLost: opts.onDatabaseLockLost,
    }));
  const clock = opts.clock ?? (config.env === 'test' ? new OffsetClock() : systemClock);
  const readGenerations = createGenerationsReader(database);
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    clock,
    mailer:
      opts.mailer ??
      createMailer({
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        outboxDir: path.join(config.dataDir, 'outbox'),
        log: app.log,
      }),
    limiter: createRateLimiter(config, { clock, log: app.log }),
    metrics: createMetrics(),
    readGenerations,
    readCache: createReadCache({
      readGenerations,
      changedRows: createChangedRowsReader(database),
      clock,
      ttlMs: config.libraryCacheSeconds * 1000,
      maxEntries: 4000,
      maxCharacters: 32 * 1024 * 1024,
    }),
  };
  app.decorate('ctx', ctx);
  const services = buildServices(ctx, app.log);
  app.decorate('services', services);
  await seedRoles(ctx.db);
  if (!opts.database) app.addHook('onClose', () => database.close());
  const stopCleanup = startCleanup(services.cleanup, app.log);
  app.addHook('onClose', async () => stopCleanup());
  // Messages still waiting for their batch are stored before the database closes.
  app.addHook('preClose', () => services.messages.close());

  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) return reply.code(400).send(validationAnswer(err));
    if (err instanceof TooManyAttempts) reply.header('retry-after', err.retryAfterSeconds);
    if (err instanceof AppError) {
      const field = err instanceof BadRequest ? err.field : undefined;
      return reply.code(err.statusCode).send({ error: err.message, field });
    }
    const conflict = conflictFromDatabase(err);
    if (conflict) return reply.code(409).send({ error: conflict.message });
    // A lost database fails the request at once (the pool's connect timeout bounds the wait) and
    // says so; the pool reconnects when it is back.
    if (isDatabaseUnavailable(err)) {
      req.log.warn(loggableError(err), 'the database is unavailable');
      return reply.code(503).header('retry-after', 5).send({ error: DATABASE_UNAVAILABLE });
    }
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) {
      req.log.error(loggableError(err), 'request failed');
      return reply.code(500).send({ error: INTERNAL_ERROR });
    }
    // Fastify's own body parsing failures (not JSON, an empty JSON body) are about the body.
    const field =
      status === 400 && (err as { code?: string }).code?.startsWith('FST_ERR_CTP_') ? 'body' : undefined;
    return reply.code(status).send({ error: err.message, field });
  });

  boundJsonBodies(app);
  await app.register(fastifyCookie);
  registerCompression(app);
  const thirdParty = thirdPartyOrigins(config);
  // helmet's headers, worked out once for every answer (platform/security-headers.ts).
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Only this site: a request to another host would tell it who uses the app. 'self' also
        // covers the websocket to this host (socket.io).
        // The configured ad and analytics origins (none unless set) may serve scripts, images and
        // frames and be connected to.
        imgSrc: ["'self'", 'data:', 'blob:', ...thirdParty],
        mediaSrc: ["'self'", 'blob:'],
        // Intiface Central (Buttplug toys) runs on the listener's own computer, and the page opens
        // a websocket to it (default ws://127.0.0.1:12345, any port): loopback only, so no other host.
        connectSrc: ["'self'", ...thirdParty, ...INTIFACE_ORIGINS],
        fontSrc: ["'self'", 'data:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'", ...thirdParty],
        ...(thirdParty.length > 0 && { frameSrc: ["'self'", ...thirdParty] }),
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  registerRateLimit(app, ctx.limiter);
  // Before every route, so each one's latency is measured; /metrics itself is no /api contract route.
  registerMetrics(app, config, ctx.metrics);
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: `${config.siteName} API`,
        version: '1.0.0',
        description:
          'Every request and response shape comes from the zod schemas in packages/shared/src/api. ' +
          'Errors answer `{ "error": "message" }`. Authenticate with the `token` cookie or `Authorization: Bearer <token>`.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  await app.register(authPlugin, { config, clock, sessions: services.sessions, readGenerations });

  await app.register(
    async (api) => {
      await registerModules(api, ctx, services);
    },
    { prefix: '/api' },
  );
  const { storage, signer, access, files, listening, sessions, messages, hub } = services;
  await mediaRoutes(app, { clock, readCache: ctx.readCache, storage, signer, access, files, listening });
  await avatarImageRoutes(app, services.avatars);
  // Messaging's socket.io server on this HTTP server (path /socket.io), closed with the app.
  await attachRealtime(app, { config, clock, metrics: ctx.metrics, sessions, messages, hub });

  await registerWebApp(app, config);

  return app as unknown as App;
}
