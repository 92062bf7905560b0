import { timezone as timezoneSchema } from '@mesmer/shared/api/common';
import type { PublicUser, SelfUser, UpdateUserRequest } from '@mesmer/shared/api/users';
import type { AppContext } from '../../platform/context.ts';
import { Invalid, NotFound } from '../../platform/errors.ts';
import { toPublicUser, toSelfUser } from './users.presenter.ts';
import { createUsersRepo, type UserSettingsPatch } from './users.repo.ts';

export function createUsersService(ctx: AppContext) {
  const users = createUsersRepo(ctx.db);

  async function self(userId: number): Promise<SelfUser> {
    const user = await users.findById(userId);
    if (!user) throw new NotFound('User not found.');
    const [roles, triggers] = await Promise.all([users.rolesOf(userId), users.triggersOf(userId)]);
    return toSelfUser(user, roles, triggers);
  }

  return {
    self,

    /** GET /api/user while signed in. A valid `timezone` from the client replaces the stored one. */
    async currentUser(userId: number, timezone?: string): Promise<SelfUser> {
      if (timezone && timezoneSchema.safeParse(timezone).success) {
        await users.setTimezone(userId, timezone);
      }
      return self(userId);
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
        timezone: input.timezone,
        vibrationOffset: input.lovenseSettings?.vibrationOffset,
        maxVibration: input.lovenseSettings?.maxVibration,
      };
      const changes = Object.fromEntries(
        Object.entries(patch).filter(([, v]) => v !== undefined),
      ) as UserSettingsPatch;
      await ctx.db.transaction(async (tx) => {
        const repo = createUsersRepo(tx);
        await repo.updateSettings(userId, changes);
        if (input.triggers) await repo.replaceTriggers(userId, input.triggers);
      });
      return self(userId);
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
