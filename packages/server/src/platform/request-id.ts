import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/** An id a proxy may hand on: short, and nothing a log line could be forged with. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's `genReqId`: each request's id (`reqId` in every log line of it) is the `X-Request-Id`
 * the proxy in front sent, when TRUST_PROXY says there is one and the value looks like an id, else
 * a new random one. Without a trusted proxy a client could name its requests after someone else's.
 */
export function requestIdGenerator(config: Config) {
  return (req: IncomingMessage): string => {
    const given = config.trustProxy === false ? undefined : req.headers['x-request-id'];
    return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  };
}

/** Every answer carries its request's id, so a report of a failure finds its log lines. */
export function echoRequestId(app: FastifyInstance) {
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
}
