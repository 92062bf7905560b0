import { hasPermission, type Permission } from '@mesmer/shared/domain/permissions';
import { SESSION_COOKIE } from '@mesmer/shared/domain/site';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createSessionRepo, type SessionUser } from '../modules/auth/session.repo.ts';
import type { AppContext } from './context.ts';
import { Forbidden, Unauthorized } from './errors.ts';
import { hashToken } from './tokens.ts';

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

/** Resolves the session on every request; routes then call requireUser / requirePermission. */
export const authPlugin = fp(async (app: FastifyInstance, ctx: AppContext) => {
  const sessions = createSessionRepo(ctx.db);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionToken', null);
  app.addHook('onRequest', async (req) => {
    if (!/^\/(api|media|download)\//.test(req.url)) return;
    const token = tokenFrom(req);
    if (!token) return;
    req.sessionToken = token;
    req.user = await sessions.findUser(hashToken(token), ctx.clock.now());
  });
});

export function requireUser(req: FastifyRequest): SessionUser {
  if (!req.user) throw new Unauthorized();
  return req.user;
}

export function requirePermission(req: FastifyRequest, permission: Permission): SessionUser {
  const user = requireUser(req);
  if (!hasPermission(user, permission)) throw new Forbidden();
  return user;
}
