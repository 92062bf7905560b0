import { z } from 'zod';
import { TEXT_LIMITS } from '../domain/limits.ts';
import { USERNAME_PATTERN, USERNAME_RULE_MESSAGE } from '../domain/username.ts';
import { text } from './common.ts';

// The rules for a new account's names and password, apart from the auth routes: the web's sign-up
// and reset forms check them as the user types, and only those pages load them (decision 038).

export const username = text(TEXT_LIMITS.username, USERNAME_RULE_MESSAGE)
  .trim()
  .regex(USERNAME_PATTERN, USERNAME_RULE_MESSAGE);
export const email = z.email('must be a valid e-mail address').max(TEXT_LIMITS.email);
export const password = text(
  TEXT_LIMITS.password,
  `Password must be at most ${TEXT_LIMITS.password} characters.`,
).min(8, 'Password must be at least 8 characters.');
