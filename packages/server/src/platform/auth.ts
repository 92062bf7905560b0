import { SESSION_COOKIE } from '@mesmer/shared/domain/site';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createAccess, requireUser as requireSignedIn, type SessionUser } from './access.ts';
import type { AppContext } from './context.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null for anonymous requests. */
    user: SessionUser | null;
    /** The raw session token the request carried, if any. */
    sessionToken: string | null;
  }
}

function tokenFrom(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || null;
  return req.cookies?.[SESSION_COOKIE] ?? null;
}

/** Resolves the session on every request; services then decide what the user may do (access.ts). */
export const authPlugin = fp(async (app: FastifyInstance, ctx: AppContext) => {
  const access = createAccess(ctx.db);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionToken', null);
  app.addHook('onRequest', async (req) => {
    if (!/^\/(api|media|download)\//.test(req.url)) return;
    const token = tokenFrom(req);
    if (!token) return;
    req.sessionToken = token;
    req.user = await access.sessionUser(token, ctx.clock.now());
  });
});

/** The request's signed-in user, or 401. */
export function requireUser(req: FastifyRequest): SessionUser {
  return requireSignedIn(req.user);
}
