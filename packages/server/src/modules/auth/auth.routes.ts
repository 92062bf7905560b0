import { authApi } from '@mesmer/shared/api/auth';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { requireUser } from '../../platform/auth.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import { routeRateLimit } from '../../platform/rate-limit.ts';
import { clearSessionCookies, setSessionCookies } from '../../platform/session-cookies.ts';
import type { AuthService } from './auth.service.ts';

/**
 * Per-client limits are on the routes; per-account and per-address limits in the
 * service (docs/decisions/013-rate-limits-and-first-administrator.md).
 */
export async function authRoutes(
  app: FastifyInstance,
  { auth, config }: { auth: AuthService; config: Config },
) {
  app.addHook('onClose', () => auth.settled());

  registerRoute(
    app,
    authApi.login,
    async (req, reply) => {
      const session = await auth.login(req.body);
      setSessionCookies(reply, config, { token: session.token, userId: session.user.id });
      return session;
    },
    { config: { rateLimit: routeRateLimit(config, { max: 20, timeWindow: '1 minute' }) } },
  );

  registerRoute(app, authApi.logout, async (req, reply) => {
    // Cleared even when the session is already gone, so a stale cookie does not linger.
    clearSessionCookies(reply, config);
    requireUser(req);
    await auth.logout(req.sessionToken!);
    return reply.code(204).send(null);
  });

  registerRoute(app, authApi.logoutEverywhere, async (req, reply) => {
    clearSessionCookies(reply, config);
    await auth.logoutEverywhere(requireUser(req).id);
    return reply.code(204).send(null);
  });

  registerRoute(app, authApi.changePassword, async (req, reply) => {
    const session = await auth.changePassword(requireUser(req).id, req.body);
    setSessionCookies(reply, config, { token: session.token, userId: session.user.id });
    return session;
  });

  registerRoute(
    app,
    authApi.register,
    async (req, reply) => {
      const session = await auth.register(req.body);
      setSessionCookies(reply, config, { token: session.token, userId: session.user.id });
      return reply.code(201).send(session);
    },
    { config: { rateLimit: routeRateLimit(config, { max: 5, timeWindow: '10 minutes' }) } },
  );

  registerRoute(app, authApi.verify, async (req, reply) => {
    await auth.verifyEmail(req.body.token);
    return reply.code(204).send(null);
  });

  registerRoute(
    app,
    authApi.resetPassword,
    async (req, reply) => {
      const { token, password, username = '', email = '' } = req.body;
      if (token && password) {
        await auth.resetPassword({ token, password, username, email });
        return reply.code(204).send(null);
      }
      return auth.requestPasswordReset(username, email);
    },
    { config: { rateLimit: routeRateLimit(config, { max: 5, timeWindow: '10 minutes' }) } },
  );
}
