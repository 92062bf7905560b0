import { randomBytes } from 'node:crypto';
import type { RoleName } from '@mesmer/shared/domain/permissions';
import type { App } from '../app.ts';
import type { Db } from '../db/client.ts';
import { createAccountsRepo } from '../modules/auth/accounts.repo.ts';
import { hashPassword } from '../modules/auth/passwords.ts';

/**
 * Test data for API tests; other modules' tests build on this, so the API stays small and stable:
 *
 *   const { app } = await createTestApp();
 *   const alice = await createUser(app.ctx.db, { roles: ['Moderator'] }); // → { id, username, email, password }
 *   const token = await loginAs(app, alice.username, alice.password);     // real POST /api/token
 *   await app.inject({ method: 'GET', url: '/api/user', headers: authHeader(token) });
 *   const bob = await createSignedInUser(app);                            // → { id, username, email, password, token }
 *
 * Every field is optional; names and e-mails are unique per call. Users get exactly the
 * roles given (none by default). Mind that the first user created in a fresh test
 * database gets id 1, which is the site owner (SITE_OWNER_ID) whatever its roles:
 * create the owner first when a test needs ordinary users.
 */

export interface TestUser {
  id: number;
  username: string;
  email: string;
  /** The plain password, for logging in. */
  password: string;
}

export interface TestUserOverrides {
  username?: string;
  email?: string;
  password?: string;
  roles?: RoleName[];
}

let created = 0;

export async function createUser(db: Db, overrides: TestUserOverrides = {}): Promise<TestUser> {
  created += 1;
  const username = overrides.username ?? `user${created}_${randomBytes(3).toString('hex')}`;
  const email = overrides.email ?? `${username.toLowerCase()}@example.test`;
  const password = overrides.password ?? 'correct horse battery';
  const users = createAccountsRepo(db);
  const id = await users.insert({ username, email, passwordHash: await hashPassword(password) });
  if (id === null) throw new Error(`createUser: username ${username} or e-mail ${email} is taken`);
  await users.addRoles(id, overrides.roles ?? []);
  return { id, username, email, password };
}

/** Logs in through POST /api/token and answers the session token. */
export async function loginAs(app: App, username: string, password: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/token',
    payload: { user: username, password, timezone: 'UTC' },
  });
  if (res.statusCode !== 200) throw new Error(`loginAs(${username}): ${res.statusCode} ${res.body}`);
  return res.json().token;
}

/** Headers that authenticate a request as the session's user. */
export function authHeader(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** createUser, then loginAs. */
export async function createSignedInUser(
  app: App,
  overrides: TestUserOverrides = {},
): Promise<TestUser & { token: string }> {
  const user = await createUser(app.ctx.db, overrides);
  return { ...user, token: await loginAs(app, user.username, user.password) };
}
