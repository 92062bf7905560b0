import {
  loginRequest,
  registerRequest,
  resetPasswordRequest,
  resetRequestedResponse,
  sessionResponse,
  verifyRequest,
} from '@mesmer/shared/api/auth';
import { errorResponse } from '@mesmer/shared/api/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../platform/auth.ts';
import type { AppContext } from '../../platform/context.ts';
import { routeRateLimit } from '../../platform/rate-limit.ts';
import { createAuthService } from './auth.service.ts';
import { clearSessionCookies, setSessionCookies } from './session-cookies.ts';

const noContent = z.null().describe('No content');

/**
 * Per-client limits are on the routes; per-account and per-address limits in the
 * service (docs/decisions/013-rate-limits-and-first-administrator.md).
 */
export async function authRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = createAuthService(ctx, app.log);
  app.addHook('onClose', () => auth.settled());
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/token',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log in with username or e-mail; sets the session cookie',
        body: loginRequest,
        response: { 200: sessionResponse, 401: errorResponse, 429: errorResponse },
      },
      config: {
        rateLimit: routeRateLimit(ctx.config, { max: 20, timeWindow: '1 minute' }),
      },
    },
    async (req, reply) => {
      const session = await auth.login(req.body);
      setSessionCookies(reply, ctx.config, { token: session.token, userId: session.user.id });
      return session;
    },
  );

  api.delete(
    '/token',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log out: ends this session and clears the cookies',
        response: { 204: noContent, 401: errorResponse },
      },
    },
    async (req, reply) => {
      // Cleared even when the session is already gone, so a stale cookie does not linger.
      clearSessionCookies(reply, ctx.config);
      requireUser(req);
      await auth.logout(req.sessionToken!);
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/register',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an account, sign it in and send the verification e-mail',
        description:
          'Public accounts start without roles and never take id 1, the site owner (`npm run admin -- create` makes it). ' +
          'A taken username or e-mail (any case) answers 409.',
        body: registerRequest,
        response: { 201: sessionResponse, 409: errorResponse, 429: errorResponse },
      },
      config: { rateLimit: routeRateLimit(ctx.config, { max: 5, timeWindow: '10 minutes' }) },
    },
    async (req, reply) => {
      const session = await auth.register(req.body);
      setSessionCookies(reply, ctx.config, { token: session.token, userId: session.user.id });
      return reply.code(201).send(session);
    },
  );

  api.post(
    '/verify',
    {
      schema: {
        tags: ['auth'],
        summary: 'Confirm an e-mail address with the token from the verification link',
        body: verifyRequest,
        response: { 204: noContent, 400: errorResponse },
      },
    },
    async (req, reply) => {
      await auth.verifyEmail(req.body.token);
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/reset_password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Ask for a reset e-mail ({username, email}) or set a new password ({token, password})',
        description:
          'The request answers 200 with the same message whether or not an account matches. ' +
          'The confirmation answers 204 and signs the account out everywhere.',
        body: resetPasswordRequest,
        response: { 200: resetRequestedResponse, 204: noContent, 400: errorResponse, 429: errorResponse },
      },
      config: { rateLimit: routeRateLimit(ctx.config, { max: 5, timeWindow: '10 minutes' }) },
    },
    async (req, reply) => {
      const { token, password, username = '', email = '' } = req.body;
      if (token && password) {
        await auth.resetPassword({ token, password, username, email });
        return reply.code(204).send(null);
      }
      return auth.requestPasswordReset(username, email);
    },
  );
}
