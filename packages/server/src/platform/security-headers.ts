import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The hardening headers helmet would set for `options`, worked out once. With these options they
 * depend on nothing in the request (no directive is a function, no nonce), so every answer can get
 * the same object; @fastify/helmet built helmet's middleware again for each request (about 8 % of
 * the server's CPU under the chat load, bench/README.md "Realtime messaging").
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    // helmet removes X-Powered-By, which Fastify never sets.
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, collector as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/** Puts helmet's headers for `options` on every answer, as the first thing of every request. */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}
