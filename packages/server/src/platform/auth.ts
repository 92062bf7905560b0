import { SESSION_COOKIE } from '@mesmer/shared/domain/site';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { Generations } from '../db/library-generation.ts';
import { requireUser as requireSignedIn, type SessionUser } from './access.ts';
import type { Clock } from './clock.ts';
import type { SessionCache } from './session-cache.ts';
import { setSessionCookies } from './session-cookies.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null for anonymous requests. */
    user: SessionUser | null;
    /** The raw session token the request carried, if any. */
    sessionToken: string | null;
    /**
     * The generations of kept data as read for this request's session, if it carried one: its
     * kept answer (platform/read-cache.ts) judges by the same read, not a second one.
     */
    generations: Promise<Generations> | null;
  }
}

function tokenFrom(req: FastifyRequest): { token: string; fromCookie: boolean } | null {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) {
    const token = header.slice(7).trim();
    return token ? { token, fromCookie: false } : null;
  }
  const cookie = req.cookies?.[SESSION_COOKIE];
  return cookie ? { token: cookie, fromCookie: true } : null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A write that a browser sends with the session cookie must come from our own pages. The cookie is
 * SameSite=Lax already; this also holds for browsers that ignore it: the browser's Sec-Fetch-Site,
 * else its Origin, must name this site. Bearer-token clients send neither cookie nor this risk.
 */
function isCrossSite(req: FastifyRequest, publicUrl: string): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site) return site === 'cross-site';
  const origin = req.headers.origin;
  if (!origin) return false;
  const host = req.headers.host;
  return origin !== new URL(publicUrl).origin && origin !== `${req.protocol}://${host}`;
}

/** Resolves the session on every request; services then decide what the user may do (access.ts). */
export const authPlugin = fp(
  async (
    app: FastifyInstance,
    {
      config,
      clock,
      sessions,
      readGenerations,
    }: { config: Config; clock: Clock; sessions: SessionCache; readGenerations: () => Promise<Generations> },
  ) => {
    app.decorateRequest('user', null);
    app.decorateRequest('sessionToken', null);
    app.decorateRequest('generations', null);
    app.addHook('onRequest', async (req, reply) => {
      if (!/^\/(api|media|download)\//.test(req.url)) return;
      const found = tokenFrom(req);
      if (!found) return;
      if (found.fromCookie && !SAFE_METHODS.has(req.method) && isCrossSite(req, config.publicUrl)) {
        return reply.code(403).send({ error: 'Requests from other sites are refused.' });
      }
      req.sessionToken = found.token;
      req.generations = readGenerations();
      // Awaited by the session check and kept answers that need it; a failed read must not go
      // unhandled when neither does (a first session lookup, then a route that keeps nothing).
      req.generations.catch(() => {});
      req.user = await sessions.sessionUser(
        found.token,
        clock.now(),
        config.sessionIdleDays,
        req.generations,
      );
      // Roles changed since sign-in: the browser's session moves to a new token (no fixation across privileges).
      if (req.user && found.fromCookie) {
        const rotated = await sessions.rotateIfPending(req.user, found.token, clock.now());
        if (rotated) {
          req.sessionToken = rotated;
          setSessionCookies(reply, config, { token: rotated, userId: req.user.id });
        }
      }
    });
  },
);

/** The request's signed-in user, or 401. */
export function requireUser(req: FastifyRequest): SessionUser {
  return requireSignedIn(req.user);
}
