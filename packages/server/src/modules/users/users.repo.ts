import type { RoleName } from '@mesmer/shared/domain/permissions';
import { and, asc, eq, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  membershipTiers,
  patreonLinks,
  roles,
  triggers,
  userMemberships,
  userRoles,
  users,
  userTriggers,
} from '../../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;
export type RoleRow = Omit<typeof roles.$inferSelect, 'id'>;
export interface UserTriggerRow {
  id: number;
  name: string;
  trainingAmount: number;
}
export interface MembershipRow {
  creatorName: string;
  tierName: string;
  tierId: string;
  active: boolean;
  cancelled: boolean;
  lastVerified: Date | null;
}

/** The user's Patreon link, for their own view. */
export interface PatreonRow {
  linked: boolean;
  patreonName: string | null;
  /** The tiers of the user's own campaign (as a creator). */
  tiers: { name: string; rank: number }[];
}

/** The settings a user may change on themselves (PUT /api/user), as stored. */
export type UserSettingsPatch = Partial<
  Pick<
    UserRow,
    'biography' | 'censorTriggers' | 'hideLockedFiles' | 'insightsOptOut' | 'vibrationOffset' | 'maxVibration'
  >
>;

const byLowerUsername = (username: string) => sql`lower(${users.username}) = lower(${username})`;

export function createUsersRepo(db: Db) {
  return {
    async findById(id: number): Promise<UserRow | null> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row ?? null;
    },

    async findByUsername(username: string): Promise<UserRow | null> {
      const [row] = await db.select().from(users).where(byLowerUsername(username));
      return row ?? null;
    },

    async rolesOf(userId: number): Promise<RoleRow[]> {
      return db
        .select({
          name: roles.name,
          showBadge: roles.showBadge,
          textColor: roles.textColor,
          background: roles.background,
        })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(eq(userRoles.userId, userId))
        .orderBy(asc(roles.id));
    },

    /** Gives the user the role; nothing when they hold it. The roles table is seeded at every start. */
    async grantRole(userId: number, role: RoleName) {
      await db
        .insert(userRoles)
        .values({ userId, roleId: sql`(select ${roles.id} from ${roles} where ${roles.name} = ${role})` })
        .onConflictDoNothing();
    },

    /** Takes the role from the user; nothing when they do not hold it. */
    async revokeRole(userId: number, role: RoleName) {
      await db
        .delete(userRoles)
        .where(
          and(
            eq(userRoles.userId, userId),
            inArray(userRoles.roleId, db.select({ id: roles.id }).from(roles).where(eq(roles.name, role))),
          ),
        );
    },

    async triggersOf(userId: number): Promise<UserTriggerRow[]> {
      return db
        .select({ id: triggers.id, name: triggers.name, trainingAmount: userTriggers.trainingAmount })
        .from(userTriggers)
        .innerJoin(triggers, eq(triggers.id, userTriggers.triggerId))
        .where(eq(userTriggers.userId, userId))
        .orderBy(asc(sql`lower(${triggers.name})`), asc(triggers.id));
    },

    async membershipsOf(userId: number): Promise<MembershipRow[]> {
      return db
        .select({
          creatorName: membershipTiers.creatorName,
          tierName: membershipTiers.title,
          tierId: membershipTiers.id,
          active: userMemberships.active,
          cancelled: userMemberships.cancelled,
          lastVerified: userMemberships.lastVerified,
        })
        .from(userMemberships)
        .innerJoin(membershipTiers, eq(membershipTiers.id, userMemberships.tierId))
        .where(eq(userMemberships.userId, userId))
        .orderBy(asc(membershipTiers.creatorName), asc(membershipTiers.rank));
    },

    /** The user's Patreon link as their own view shows it (never the tokens), and their campaign's tiers. */
    async patreonOf(userId: number): Promise<PatreonRow> {
      const [[link], tiers] = await Promise.all([
        db
          .select({ patreonName: patreonLinks.patreonName })
          .from(patreonLinks)
          .where(eq(patreonLinks.userId, userId)),
        db
          .select({ name: membershipTiers.title, rank: membershipTiers.rank })
          .from(membershipTiers)
          .where(eq(membershipTiers.creatorUserId, userId))
          .orderBy(asc(membershipTiers.rank), asc(membershipTiers.id)),
      ]);
      return { linked: link !== undefined, patreonName: link?.patreonName ?? null, tiers };
    },

    /** Which of these trigger ids exist and are published (a pending request is not usable). */
    async existingTriggerIds(ids: number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: triggers.id })
        .from(triggers)
        .where(and(inArray(triggers.id, ids), eq(triggers.pending, false)));
      return new Set(rows.map((r) => r.id));
    },

    async replaceTriggers(userId: number, selections: { triggerId: number; trainingAmount: number }[]) {
      await db.delete(userTriggers).where(eq(userTriggers.userId, userId));
      if (selections.length > 0) {
        await db.insert(userTriggers).values(selections.map((s) => ({ userId, ...s })));
      }
    },

    async updateSettings(userId: number, patch: UserSettingsPatch) {
      if (Object.keys(patch).length === 0) return;
      await db.update(users).set(patch).where(eq(users.id, userId));
    },

    /**
     * Stores a different time zone unless it last changed after `changedBefore`:
     * 'changed', 'same' (already stored) or 'too-soon'. One UPDATE, so racing calls change it once.
     */
    async changeTimezone(
      userId: number,
      timezone: string,
      now: Date,
      changedBefore: Date,
    ): Promise<'changed' | 'same' | 'too-soon'> {
      const rows = await db
        .update(users)
        .set({ timezone, timezoneChangedAt: now })
        .where(
          and(
            eq(users.id, userId),
            ne(users.timezone, timezone),
            or(isNull(users.timezoneChangedAt), lte(users.timezoneChangedAt, changedBefore)),
          ),
        )
        .returning({ id: users.id });
      if (rows.length === 1) return 'changed';
      const [row] = await db.select({ timezone: users.timezone }).from(users).where(eq(users.id, userId));
      return row?.timezone === timezone ? 'same' : 'too-soon';
    },
  };
}
