import { SESSION_COOKIE, SESSION_MARKER_COOKIE } from '@mesmer/shared/domain/site';
import type { FastifyReply } from 'fastify';
import type { Config } from '../config.ts';

function cookieOptions(config: Config) {
  return {
    path: '/',
    sameSite: 'lax' as const,
    secure: config.publicUrl.startsWith('https://'),
    maxAge: config.cookieDays * 24 * 60 * 60,
  };
}

/**
 * The session token goes in an HttpOnly cookie; the readable marker cookie holds
 * only the user id, so other tabs notice sign-in and sign-out.
 */
export function setSessionCookies(
  reply: FastifyReply,
  config: Config,
  session: { token: string; userId: number },
) {
  reply.setCookie(SESSION_COOKIE, session.token, { ...cookieOptions(config), httpOnly: true });
  reply.setCookie(SESSION_MARKER_COOKIE, String(session.userId), {
    ...cookieOptions(config),
    httpOnly: false,
  });
}

export function clearSessionCookies(reply: FastifyReply, config: Config) {
  const { path, sameSite, secure } = cookieOptions(config);
  reply.clearCookie(SESSION_COOKIE, { path, sameSite, secure, httpOnly: true });
  reply.clearCookie(SESSION_MARKER_COOKIE, { path, sameSite, secure });
}
