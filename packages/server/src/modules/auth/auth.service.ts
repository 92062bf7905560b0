import type {
  ChangePasswordRequest,
  LoginRequest,
  RegisterRequest,
  SessionResponse,
} from '@mesmer/shared/api/auth';
import { type RoleName, SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import { type Db, withTransaction } from '../../db/client.ts';
import type { SeedAccounts } from '../../db/seed/seed-accounts.ts';
import type { Clock } from '../../platform/clock.ts';
import { Conflict, Forbidden, Invalid, NotFound, Unauthorized } from '../../platform/errors.ts';
import type { Mailer, MailMessage } from '../../platform/mail.ts';
import type { Limit, RateLimiter } from '../../platform/rate-limit.ts';
import { hashToken, newToken } from '../../platform/tokens.ts';
import type { MessagesHub } from '../messages/index.ts';
import type { UsersService } from '../users/users.service.ts';
import { createAccountsRepo, type NewUser } from './accounts.repo.ts';
import { passwordResetMail, verificationMail } from './auth.mails.ts';
import { createEmailTokenRepo } from './email-token.repo.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { createSessionRepo } from './session.repo.ts';

const INVALID_CREDENTIALS = 'Invalid credentials.';
const ACCOUNT_TAKEN = 'The username or email you entered is already in use.';
const VERIFICATION_FAILED = 'Verification failed.';
const RESET_FAILED = 'Failed to reset password.';
const RESET_REQUESTED = 'If an account matches, we sent an e-mail with a reset link.';

const HOUR_MS = 60 * 60 * 1000;
const VERIFY_LINK_LIFETIME_MS = 48 * HOUR_MS;
const RESET_LINK_LIFETIME_MS = 1 * HOUR_MS;

/** Failed logins per account, whichever name or e-mail was typed (per-client limits are on the routes). */
export const LOGIN_FAILURES: Limit = { name: 'login failures', max: 10, windowMs: 15 * 60 * 1000 };
/** Sign-ups per e-mail address, so a list of addresses cannot be tested against the 409 from many clients. */
export const SIGN_UPS_PER_EMAIL: Limit = { name: 'sign-ups per e-mail', max: 3, windowMs: HOUR_MS };
/** Reset mails per account. */
export const RESET_MAILS: Limit = { name: 'reset mails', max: 3, windowMs: HOUR_MS };

/** The key an account's counts are kept under; a login that matches no account counts as itself. */
export const accountKey = (userId: number | undefined, typed: string) =>
  userId === undefined ? `unknown ${typed.trim().toLowerCase()}` : `account ${userId}`;

export interface NewAccount extends NewUser {
  roles: readonly RoleName[];
}

/**
 * Inserts an account; call inside a transaction (it takes the account-creation
 * lock until the transaction ends). Only `asOwner` may take id 1, the site owner
 * (docs/decisions/013-rate-limits-and-first-administrator.md); every other account gets a
 * later id even on an empty database. A taken username or e-mail, compared
 * case-insensitively, is a Conflict.
 */
async function insertAccount(tx: Db, account: NewAccount, asOwner = false): Promise<number> {
  const users = createAccountsRepo(tx);
  await users.lockAccountCreation();
  const { roles, ...fields } = account;
  let id: number | null;
  if (asOwner) {
    id = await users.insertOwner(fields);
  } else {
    await users.keepOwnerIdFree();
    id = await users.insert(fields);
  }
  if (id === null) throw new Conflict(ACCOUNT_TAKEN);
  await users.addRoles(id, roles);
  return id;
}

/**
 * An Administrator account with a confirmed e-mail (for `npm run admin`); the site
 * owner (id 1) when there is none yet. Answers the new id.
 */
export async function createAdministrator(
  db: Db,
  input: { username: string; email: string; password: string },
): Promise<number> {
  const passwordHash = await hashPassword(input.password);
  return withTransaction(db, async (tx) => {
    const noOwner = (await createAccountsRepo(tx).findById(SITE_OWNER_ID)) === null;
    return insertAccount(
      tx,
      {
        username: input.username,
        email: input.email,
        passwordHash,
        roles: ['Administrator'],
        emailVerified: true,
      },
      noOwner,
    );
  });
}

/** Sets a new password for an existing account and ends its sessions (for `npm run admin`). Answers its id. */
export async function setAccountPassword(db: Db, username: string, password: string): Promise<number> {
  const passwordHash = await hashPassword(password);
  return withTransaction(db, async (tx) => {
    const users = createAccountsRepo(tx);
    const user = await users.findByUsername(username);
    if (!user) throw new NotFound('User not found.');
    await users.setPasswordHash(user.id, passwordHash);
    await createSessionRepo(tx).deleteAllForUser(user.id);
    return user.id;
  });
}

/** Accounts for seeding (db/seed): made with a confirmed e-mail and their roles. */
function seedAccountsOf(db: Db): SeedAccounts {
  const users = createAccountsRepo(db);
  const make = async (
    asOwner: boolean,
    { password, roles, ...fields }: Parameters<SeedAccounts['create']>[0],
  ) => {
    const user = { ...fields, passwordHash: await hashPassword(password), emailVerified: true };
    const id = asOwner ? await users.insertOwner(user) : await users.insert(user);
    if (id !== null) await users.addRoles(id, roles);
    return id;
  };
  return {
    idOf: async (username) => (await users.findByUsername(username))?.id ?? null,
    exists: async (id) => (await users.findById(id)) !== null,
    createOwner: (account) => make(true, account),
    create: (account) => make(false, account),
    async hasPassword(username, password) {
      const user = await users.findByUsername(username);
      return user !== null && (await verifyPassword(user.passwordHash, password));
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService({
  db,
  clock,
  config,
  mailer,
  limiter,
  users: usersService,
  hub,
  log,
}: {
  db: Db;
  clock: Clock;
  config: Config;
  mailer: Mailer;
  limiter: RateLimiter;
  users: UsersService;
  /** Ends the sockets of the sessions that sign-outs and password changes end. */
  hub: MessagesHub;
  log: FastifyBaseLogger;
}) {
  const users = createAccountsRepo(db);
  const sessions = createSessionRepo(db);
  const fromNow = (ms: number) => new Date(clock.now().getTime() + ms);

  async function startSession(db: Db, userId: number): Promise<string> {
    const token = newToken();
    await createSessionRepo(db).insert(
      hashToken(token),
      userId,
      clock.now(),
      fromNow(config.cookieDays * 24 * HOUR_MS),
    );
    return token;
  }

  /** Work the answer does not wait for; `settled` waits for all of it (on close). */
  const pending = new Set<Promise<void>>();
  function inBackground(work: () => Promise<void>) {
    const task = work()
      .catch((err) => log.error({ err }, 'background work of an auth request failed'))
      .finally(() => pending.delete(task));
    pending.add(task);
  }

  /** A mail that cannot be sent must not undo the action that triggered it; it is logged instead. */
  async function sendMail(message: MailMessage) {
    try {
      await mailer.send(message);
    } catch (err) {
      log.error({ err, to: message.to, subject: message.subject }, 'sending mail failed');
    }
  }

  /**
   * 403 with `refusal` unless `password` is the account's; a wrong one counts as a failed sign-in
   * of the account (LOGIN_FAILURES), a right one takes that count back.
   */
  async function requirePassword(
    account: { id: number; username: string; passwordHash: string },
    password: string,
    refusal: string,
  ): Promise<void> {
    const key = accountKey(account.id, account.username);
    await limiter.consume(LOGIN_FAILURES, key);
    if (!(await verifyPassword(account.passwordHash, password))) throw new Forbidden(refusal);
    await limiter.undo(LOGIN_FAILURES, key);
  }

  return {
    async settled() {
      await Promise.all(pending);
    },

    requirePassword,

    /** What seeding (db/seed) may do with accounts. */
    seedAccounts: seedAccountsOf(db),

    /**
     * Clean-up (modules/cleanup): deletes expired sign-in sessions and spent or expired e-mail
     * tokens, inside the caller's transaction `tx`.
     */
    async deleteExpiredSignIns(tx: Db, now: Date): Promise<{ sessions: number; emailTokens: number }> {
      return {
        sessions: await createSessionRepo(tx).deleteExpired(now),
        emailTokens: await createEmailTokenRepo(tx).deleteSpent(now),
      };
    },

    /**
     * Username or e-mail plus password; the same answer for an unknown user and a wrong
     * password. Failures count per account (LOGIN_FAILURES); once over, even the right
     * password waits for the window to end. Each attempt counts as a failure before the
     * password is checked (so parallel guesses cannot slip past the count) and is taken
     * back when it succeeds.
     */
    async login(input: LoginRequest): Promise<SessionResponse> {
      const user = await users.findByLogin(input.user);
      const key = accountKey(user?.id, input.user);
      await limiter.consume(LOGIN_FAILURES, key);
      const passwordOk = await verifyPassword(user?.passwordHash ?? null, input.password);
      if (!user || !passwordOk) throw new Unauthorized(INVALID_CREDENTIALS);
      await limiter.undo(LOGIN_FAILURES, key);
      if (user.suspendedAt) throw new Forbidden('This account is suspended.');
      if (input.timezone) await usersService.adoptTimezone(user.id, input.timezone);
      const token = await startSession(db, user.id);
      return { token, user: await usersService.self(user.id) };
    },

    /** Ends the session, and the sockets opened with it in every process. */
    async logout(sessionToken: string) {
      await sessions.delete(hashToken(sessionToken));
      hub.endSession?.(hashToken(sessionToken));
    },

    async logoutEverywhere(userId: number) {
      await sessions.deleteAllForUser(userId);
      hub.disconnectUser?.(userId);
    },

    /**
     * Checks the current password (a wrong one counts as a failed sign-in of the account), sets the
     * new one and ends every session; the answer is a new session for this browser.
     */
    async changePassword(userId: number, input: ChangePasswordRequest): Promise<SessionResponse> {
      const user = await users.findById(userId);
      if (!user) throw new Unauthorized();
      await requirePassword(user, input.currentPassword, 'The current password is not right.');
      const passwordHash = await hashPassword(input.newPassword);
      const token = await withTransaction(db, async (tx) => {
        await createAccountsRepo(tx).setPasswordHash(user.id, passwordHash);
        await createSessionRepo(tx).deleteAllForUser(user.id);
        return startSession(tx, user.id);
      });
      // This browser's socket too: it reconnects with the new session.
      hub.disconnectUser?.(user.id);
      return { token, user: await usersService.self(user.id) };
    },

    /** Creates the account, signs it in and sends the verification link. */
    async register(input: RegisterRequest): Promise<SessionResponse> {
      await limiter.consume(SIGN_UPS_PER_EMAIL, input.email.trim().toLowerCase());
      const passwordHash = await hashPassword(input.password);
      const verifyToken = newToken();
      const { userId, token } = await withTransaction(db, async (tx) => {
        const userId = await insertAccount(tx, {
          username: input.user,
          email: input.email,
          passwordHash,
          timezone: input.timezone,
          createdAt: clock.now(),
          roles: [],
        });
        await createEmailTokenRepo(tx).insert(
          hashToken(verifyToken),
          userId,
          'verify',
          fromNow(VERIFY_LINK_LIFETIME_MS),
        );
        return { userId, token: await startSession(tx, userId) };
      });
      await sendMail(
        verificationMail({
          to: input.email,
          username: input.user,
          link: `${config.publicUrl}/verify?token=${verifyToken}`,
          siteName: config.siteName,
        }),
      );
      return { token, user: await usersService.self(userId) };
    },

    async verifyEmail(token: string) {
      const verified = await withTransaction(db, async (tx) => {
        const userId = await createEmailTokenRepo(tx).consume(hashToken(token), 'verify', clock.now());
        if (userId === null) return false;
        await createAccountsRepo(tx).markEmailVerified(userId);
        return true;
      });
      if (!verified) throw new Invalid(VERIFICATION_FAILED);
    },

    /**
     * Sends a reset link only when username and e-mail belong to one account, at most
     * RESET_MAILS an hour. The answer never tells: both cases do the same lookup and
     * count, and the link is stored and mailed after the answer.
     */
    async requestPasswordReset(username: string, email: string): Promise<{ message: string }> {
      const user = await users.findByUsernameAndEmail(username, email);
      const withinLimit = await limiter.hit(RESET_MAILS, accountKey(user?.id, `${username}\n${email}`));
      if (user && withinLimit) {
        inBackground(async () => {
          const token = newToken();
          await createEmailTokenRepo(db).insert(
            hashToken(token),
            user.id,
            'reset',
            fromNow(RESET_LINK_LIFETIME_MS),
          );
          await sendMail(
            passwordResetMail({
              to: user.email,
              username: user.username,
              link: `${config.publicUrl}/reset_password?token=${token}`,
              siteName: config.siteName,
            }),
          );
        });
      }
      return { message: RESET_REQUESTED };
    },

    /**
     * Sets a new password from a reset link and signs the account out everywhere.
     * A username or e-mail sent along must match the link's account.
     */
    async resetPassword(input: { token: string; password: string; username?: string; email?: string }) {
      const passwordHash = await hashPassword(input.password);
      const now = clock.now();
      const same = (given: string | undefined, stored: string) =>
        !given?.trim() || given.trim().toLowerCase() === stored.toLowerCase();
      const userId = await withTransaction(db, async (tx) => {
        const tokens = createEmailTokenRepo(tx);
        const usersTx = createAccountsRepo(tx);
        const userId = await tokens.consume(hashToken(input.token), 'reset', now);
        const user = userId === null ? null : await usersTx.findById(userId);
        // Throwing rolls the transaction back, so a mismatch leaves the link usable.
        if (!user || !same(input.username, user.username) || !same(input.email, user.email)) {
          throw new Invalid(RESET_FAILED);
        }
        await usersTx.setPasswordHash(user.id, passwordHash);
        await tokens.useAllFor(user.id, 'reset', now);
        await createSessionRepo(tx).deleteAllForUser(user.id);
        return user.id;
      });
      hub.disconnectUser?.(userId);
    },
  };
}
