import type { PublicUser, SelfUser, UpdateUserRequest } from '@mesmer/shared/api/users';
import { canManageRoles, type GrantableRole, type RoleName } from '@mesmer/shared/domain/permissions';
import { type Db, withTransaction } from '../../db/client.ts';
import { requirePermission, type SessionUser } from '../../platform/access.ts';
import type { Clock } from '../../platform/clock.ts';
import { Conflict, Invalid, NotFound } from '../../platform/errors.ts';
import { rotateSessionsOnNextRequest } from '../../platform/session-cache.ts';
import { toPublicUser, toSelfUser } from './users.presenter.ts';
import { createUsersRepo, type RoleRow, type UserSettingsPatch } from './users.repo.ts';

/** A user's time zone changes at most this often. */
export const TIMEZONE_CHANGE_INTERVAL_MS = 24 * 60 * 60 * 1000;

/**
 * Gives (`grant`) or takes one role of a user and answers their roles after. Sessions load the
 * roles with every request (platform/access.repo.ts) and the write raises the sessions generation
 * (db/kept-generations.ts), so the user's very next request has exactly the new permissions.
 */
async function changeRole(db: Db, userId: number, role: RoleName, grant: boolean): Promise<RoleRow[]> {
  return withTransaction(db, async (tx) => {
    const repo = createUsersRepo(tx);
    if (grant) await repo.grantRole(userId, role);
    else await repo.revokeRole(userId, role);
    await rotateSessionsOnNextRequest(tx, userId);
    return repo.rolesOf(userId);
  });
}

/**
 * `npm run admin -- role <username> <role> [--revoke]`: any role, Administrator too (the command
 * is how administrators are made). Answers the user and their role names after.
 */
export async function setRoleByUsername(
  db: Db,
  username: string,
  role: RoleName,
  grant: boolean,
): Promise<{ id: number; username: string; roles: string[] }> {
  const user = await createUsersRepo(db).findByUsername(username);
  if (!user) throw new NotFound('User not found.');
  const roles = await changeRole(db, user.id, role, grant);
  return { id: user.id, username: user.username, roles: roles.map((r) => r.name) };
}

export type UsersService = ReturnType<typeof createUsersService>;

export function createUsersService({ db, clock }: { db: Db; clock: Clock }) {
  const users = createUsersRepo(db);

  async function self(userId: number): Promise<SelfUser> {
    const user = await users.findById(userId);
    if (!user) throw new NotFound('User not found.');
    const [roles, triggers, memberships, patreonLink] = await Promise.all([
      users.rolesOf(userId),
      users.triggersOf(userId),
      users.membershipsOf(userId),
      users.patreonOf(userId),
    ]);
    return toSelfUser(user, roles, triggers, memberships, patreonLink);
  }

  /** PUT/DELETE /api/users/:id/roles: administrators only (401 anonymous, 403 others, 404 no such user). */
  async function changeRoleAs(
    actor: SessionUser | null,
    userId: number,
    role: GrantableRole,
    grant: boolean,
  ): Promise<RoleRow[]> {
    requirePermission(actor, canManageRoles);
    if (!(await users.findById(userId))) throw new NotFound('User not found.');
    return changeRole(db, userId, role, grant);
  }

  return {
    self,

    grantRole: (actor: SessionUser | null, userId: number, role: GrantableRole) =>
      changeRoleAs(actor, userId, role, true),

    revokeRole: (actor: SessionUser | null, userId: number, role: GrantableRole) =>
      changeRoleAs(actor, userId, role, false),

    /**
     * A time zone the client sent along with another write (sign-in, listening session):
     * stored when it may change now, else ignored. A zone changes at most once a day, so the
     * streak's day cannot be moved by switching zones between calls.
     */
    async adoptTimezone(userId: number, timezone: string): Promise<void> {
      const now = clock.now();
      await users.changeTimezone(
        userId,
        timezone,
        now,
        new Date(now.getTime() - TIMEZONE_CHANGE_INTERVAL_MS),
      );
    },

    /** Anyone's public profile, found case-insensitively. */
    async profile(username: string): Promise<PublicUser> {
      const user = await users.findByUsername(username);
      if (!user) throw new NotFound('User not found.');
      const [roles, triggers] = await Promise.all([users.rolesOf(user.id), users.triggersOf(user.id)]);
      return toPublicUser(user, roles, triggers);
    },

    /** PUT /api/user: a user only ever changes their own settings. `triggers` replaces the whole selection. */
    async updateSettings(userId: number, input: UpdateUserRequest): Promise<SelfUser> {
      if (input.triggers) {
        const ids = input.triggers.map((t) => t.triggerId);
        if (new Set(ids).size !== ids.length)
          throw new Invalid('triggers: each trigger may appear only once.');
        const existing = await users.existingTriggerIds(ids);
        const unknown = ids.find((id) => !existing.has(id));
        if (unknown !== undefined) throw new Invalid(`triggers: there is no trigger with id ${unknown}.`);
      }
      const patch: UserSettingsPatch = {
        biography: input.biography,
        censorTriggers: input.censorTriggers,
        hideLockedFiles: input.hideLockedFiles,
        insightsOptOut: input.insightsOptOut,
        vibrationOffset: input.lovenseSettings?.vibrationOffset,
        maxVibration: input.lovenseSettings?.maxVibration,
      };
      const changes = Object.fromEntries(
        Object.entries(patch).filter(([, v]) => v !== undefined),
      ) as UserSettingsPatch;
      await withTransaction(db, async (tx) => {
        const repo = createUsersRepo(tx);
        if (input.timezone !== undefined) {
          const now = clock.now();
          const since = new Date(now.getTime() - TIMEZONE_CHANGE_INTERVAL_MS);
          if ((await repo.changeTimezone(userId, input.timezone, now, since)) === 'too-soon') {
            throw new Conflict('timezone: your time zone can change once a day.');
          }
        }
        await repo.updateSettings(userId, changes);
        if (input.triggers) await repo.replaceTriggers(userId, input.triggers);
      });
      return self(userId);
    },
  };
}
