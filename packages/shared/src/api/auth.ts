import { z } from 'zod';
import { TEXT_LIMITS } from '../domain/limits.ts';
import { authRoutes } from '../routes/auth.ts';
import { errorResponse, text, timezone } from './common.ts';
import { defineRoute, noContent } from './contract.ts';
import { email, password, username } from './credentials.ts';
import { selfUser } from './users.ts';

/** POST /api/token (log in). `user` is the username or the e-mail address. */
export const loginRequest = z.object({
  user: text(TEXT_LIMITS.email).trim().min(1, 'is required'),
  password: text(TEXT_LIMITS.password).min(1, 'is required'),
  timezone: timezone.optional(),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const sessionResponse = z.object({ token: z.string(), user: selfUser });
export type SessionResponse = z.infer<typeof sessionResponse>;

/** PUT /api/user/password: the current password again, and the new one. */
export const changePasswordRequest = z.object({
  currentPassword: text(TEXT_LIMITS.password).min(1, 'is required'),
  newPassword: password,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

/** POST /api/register */
export const registerRequest = z.object({
  user: username,
  email,
  password,
  timezone: timezone.optional(),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

/** POST /api/verify → 204 */
export const verifyRequest = z.object({ token: text(TEXT_LIMITS.token).min(1, 'is required') });

/**
 * POST /api/reset_password. Without `token`: asks for a reset e-mail (username and
 * email required; the same answer whether or not the account exists). With `token`:
 * sets the new `password` (204). username and email may accompany the confirm call
 * (spec) and must then match the token's account.
 * One object rather than a union, so a 400 names the missing field.
 */
export const resetPasswordRequest = z
  .object({
    token: text(TEXT_LIMITS.token).min(1, 'is required').optional(),
    password: password.optional(),
    username: text(TEXT_LIMITS.username).trim().optional(),
    email: text(TEXT_LIMITS.email).trim().optional(),
  })
  .superRefine((body, ctx) => {
    const required = body.token === undefined ? (['username', 'email'] as const) : (['password'] as const);
    for (const field of required) {
      if (!body[field]) ctx.addIssue({ code: 'custom', path: [field], message: 'is required' });
    }
  });
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;
export const resetRequestedResponse = z.object({ message: z.string() });

export const authApi = {
  login: defineRoute(authRoutes.login, {
    tags: ['auth'],
    summary: 'Log in with username or e-mail; sets the session cookie',
    body: loginRequest,
    responses: { 200: sessionResponse, 401: errorResponse, 403: errorResponse, 429: errorResponse },
  }),
  logout: defineRoute(authRoutes.logout, {
    tags: ['auth'],
    summary: 'Log out: ends this session and clears the cookies',
    responses: { 204: noContent, 401: errorResponse },
  }),
  logoutEverywhere: defineRoute(authRoutes.logoutEverywhere, {
    tags: ['auth'],
    summary: 'Sign out everywhere: ends every session of the account, this one too, and clears the cookies',
    responses: { 204: noContent, 401: errorResponse },
  }),
  changePassword: defineRoute(authRoutes.changePassword, {
    tags: ['auth'],
    summary: 'Change your password; every other session ends and this one gets a new token',
    description:
      'A wrong `currentPassword` answers 403 and counts as a failed sign-in of the account (10 in 15 minutes, ' +
      'then 429). The answer carries the new session token (the old one ends) and sets the cookies.',
    body: changePasswordRequest,
    responses: {
      200: sessionResponse,
      400: errorResponse,
      401: errorResponse,
      403: errorResponse,
      429: errorResponse,
    },
  }),
  register: defineRoute(authRoutes.register, {
    tags: ['auth'],
    summary: 'Create an account, sign it in and send the verification e-mail',
    description:
      'Public accounts start without roles and never take id 1, the site owner (`npm run admin -- create` makes it). ' +
      'A taken username or e-mail (any case) answers 409.',
    body: registerRequest,
    responses: { 201: sessionResponse, 409: errorResponse, 429: errorResponse },
  }),
  verify: defineRoute(authRoutes.verify, {
    tags: ['auth'],
    summary: 'Confirm an e-mail address with the token from the verification link',
    body: verifyRequest,
    responses: { 204: noContent, 400: errorResponse },
  }),
  resetPassword: defineRoute(authRoutes.resetPassword, {
    tags: ['auth'],
    summary: 'Ask for a reset e-mail ({username, email}) or set a new password ({token, password})',
    description:
      'The request answers 200 with the same message whether or not an account matches. ' +
      'The confirmation answers 204 and signs the account out everywhere.',
    body: resetPasswordRequest,
    responses: { 200: resetRequestedResponse, 204: noContent, 400: errorResponse, 429: errorResponse },
  }),
};
