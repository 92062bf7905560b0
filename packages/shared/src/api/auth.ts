import { z } from 'zod';
import { USERNAME_PATTERN, USERNAME_RULE_MESSAGE } from '../domain/username.ts';
import { TEXT_LIMITS, text, timezone } from './common.ts';
import { selfUser } from './users.ts';

export const username = text(TEXT_LIMITS.username, USERNAME_RULE_MESSAGE)
  .trim()
  .regex(USERNAME_PATTERN, USERNAME_RULE_MESSAGE);
export const email = z.email('must be a valid e-mail address').max(TEXT_LIMITS.email);
export const password = text(
  TEXT_LIMITS.password,
  `Password must be at most ${TEXT_LIMITS.password} characters.`,
).min(8, 'Password must be at least 8 characters.');

/** POST /api/token (log in). `user` is the username or the e-mail address. */
export const loginRequest = z.object({
  user: text(TEXT_LIMITS.email).trim().min(1, 'is required'),
  password: text(TEXT_LIMITS.password).min(1, 'is required'),
  timezone: timezone.optional(),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const sessionResponse = z.object({ token: z.string(), user: selfUser });
export type SessionResponse = z.infer<typeof sessionResponse>;

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
