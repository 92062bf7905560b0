import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../config.ts';

/**
 * This process's Prometheus metrics: the Node.js defaults (event-loop lag, memory, handles), request
 * latency by route, open messaging sockets and uploaded bytes. One registry per app, so apps built
 * side by side (tests) count apart.
 */
export interface Metrics {
  registry: Registry;
  /** Seconds from a request's arrival to its answer, by method, route pattern and status. */
  requestDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** socket.io connections open on this process (modules/messages/messages.realtime.ts). */
  openSockets: Gauge;
  /** Bytes of upload chunks stored (modules/uploads). */
  uploadBytes: Counter;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    requestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request to its answer, by route pattern',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    openSockets: new Gauge({
      name: 'socketio_open_connections',
      help: 'Messaging (socket.io) connections open on this process',
      registers: [registry],
    }),
    uploadBytes: new Counter({
      name: 'upload_bytes_total',
      help: 'Bytes of upload chunks stored',
      registers: [registry],
    }),
  };
}

/** A fixed-length digest, so comparing tokens takes as long whatever was sent. */
const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Serves the metrics at GET /metrics and times every request. With METRICS_TOKEN the scrape must
 * send `Authorization: Bearer <token>` (401 otherwise); without it /metrics is open in development
 * and test, and answers 404 in production (it tells who uses the site how much).
 */
export function registerMetrics(app: FastifyInstance, config: Config, metrics: Metrics) {
  const token = config.metricsToken;
  const { registry, requestDuration } = metrics;
  const hidden = { schema: { hide: true } };
  if (!token && config.env === 'production') {
    // Answered here, so the web app's fallback page is not served in its place.
    app.get('/metrics', hidden, (_req, reply) => reply.code(404).send({ error: 'Not found.' }));
    return;
  }

  app.addHook('onResponse', async (req, reply) => {
    requestDuration.observe(
      {
        method: req.method,
        // The pattern (/api/playlists/:id), never the URL: one series per route, not per id.
        route: req.routeOptions.url ?? 'unmatched',
        status_code: reply.statusCode,
      },
      reply.elapsedTime / 1000,
    );
  });

  const expected = token ? digest(`Bearer ${token}`) : undefined;
  app.get('/metrics', hidden, async (req, reply) => {
    if (expected && !timingSafeEqual(digest(req.headers.authorization ?? ''), expected)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({ error: 'This needs the metrics token.' });
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
