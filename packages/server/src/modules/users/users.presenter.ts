import type { PublicUser, SelfUser } from '@mesmer/shared/api/users';
import { permissionsOf } from '@mesmer/shared/domain/permissions';
import type { MembershipRow, PatreonRow, RoleRow, UserRow, UserTriggerRow } from './users.repo.ts';

/** Exactly what anyone may see of a user: never e-mail, settings or tokens. */
export function toPublicUser(user: UserRow, roles: RoleRow[], triggers: UserTriggerRow[]): PublicUser {
  return {
    id: user.id,
    username: user.username,
    imageURL: user.imageUrl,
    biography: user.biography,
    points: user.points,
    streak: user.streak,
    roles,
    // The Patreon name is the person's own (their full name on Patreon): only their own view shows it.
    patreonName: null,
    triggers,
    createdAt: user.createdAt.toISOString(),
  };
}

/** The signed-in user's own view, with settings and permissions. */
export function toSelfUser(
  user: UserRow,
  roles: RoleRow[],
  triggers: UserTriggerRow[],
  memberships: MembershipRow[],
  patreon: PatreonRow,
): SelfUser {
  return {
    ...toPublicUser(user, roles, triggers),
    patreonName: patreon.patreonName,
    email: user.email,
    emailVerified: user.emailVerified,
    timezone: user.timezone,
    permissions: [...permissionsOf(roles.map((r) => r.name))],
    censorTriggers: user.censorTriggers,
    hideLockedFiles: user.hideLockedFiles,
    insightsOptOut: user.insightsOptOut,
    patreonLinked: patreon.linked,
    patreonTiers: patreon.tiers,
    memberships: memberships.map((m) => ({ ...m, lastVerified: m.lastVerified?.toISOString() ?? null })),
    lovenseToken: user.lovenseToken,
    lovenseSettings: { vibrationOffset: user.vibrationOffset, maxVibration: user.maxVibration },
  };
}
