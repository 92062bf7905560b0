import { type RoleName, SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import { and, asc, eq, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { roles, triggers, userRoles, users, userTriggers } from '../../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;
export type RoleRow = Omit<typeof roles.$inferSelect, 'id'>;
export interface UserTriggerRow {
  id: number;
  name: string;
  trainingAmount: number;
}

/** The settings a user may change on themselves (PUT /api/user), as stored. */
export type UserSettingsPatch = Partial<
  Pick<UserRow, 'biography' | 'censorTriggers' | 'hideLockedFiles' | 'vibrationOffset' | 'maxVibration'>
>;

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
  timezone?: string;
  emailVerified?: boolean;
  createdAt?: Date;
  /** Only the demo seed starts an account with these. */
  biography?: string;
  points?: number;
  streak?: number;
}

/** Arbitrary fixed key for pg_advisory_xact_lock: serialises account creation. */
const ACCOUNT_CREATION_LOCK = 7_261_001;

function isUniqueViolation(err: unknown): boolean {
  const codeOf = (e: unknown) => (e as { code?: string } | undefined)?.code;
  return codeOf(err) === '23505' || codeOf((err as { cause?: unknown }).cause) === '23505';
}

const byLowerUsername = (username: string) => sql`lower(${users.username}) = lower(${username})`;
const byLowerEmail = (email: string) => sql`lower(${users.email}) = lower(${email})`;

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

    /** Login accepts the username or the e-mail address, both case-insensitive. */
    async findByLogin(login: string): Promise<UserRow | null> {
      const [row] = await db
        .select()
        .from(users)
        .where(sql`${byLowerUsername(login)} or ${byLowerEmail(login)}`);
      return row ?? null;
    },

    async findByUsernameAndEmail(username: string, email: string): Promise<UserRow | null> {
      const [row] = await db
        .select()
        .from(users)
        .where(and(byLowerUsername(username), byLowerEmail(email)));
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

    async triggersOf(userId: number): Promise<UserTriggerRow[]> {
      return db
        .select({ id: triggers.id, name: triggers.name, trainingAmount: userTriggers.trainingAmount })
        .from(userTriggers)
        .innerJoin(triggers, eq(triggers.id, userTriggers.triggerId))
        .where(eq(userTriggers.userId, userId))
        .orderBy(asc(sql`lower(${triggers.name})`), asc(triggers.id));
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

    /** Holds until the surrounding transaction ends; call inside one. */
    async lockAccountCreation() {
      await db.execute(sql`select pg_advisory_xact_lock(${ACCOUNT_CREATION_LOCK})`);
    },

    /** Moves an unused id sequence past 1, so the next `insert` cannot take the site owner's id. */
    async keepOwnerIdFree() {
      await db.execute(
        sql`select setval(pg_get_serial_sequence('users', 'id'), 1, true)
            where pg_sequence_last_value(pg_get_serial_sequence('users', 'id')::regclass) is null`,
      );
    },

    /** The new user's id, or null when the username or e-mail is taken (case-insensitively). */
    async insert(user: NewUser): Promise<number | null> {
      try {
        const [row] = await db.insert(users).values(user).returning({ id: users.id });
        return row.id;
      } catch (err) {
        if (isUniqueViolation(err)) return null;
        throw err;
      }
    },

    /**
     * Inserts the site owner as id 1 (call only while id 1 is free) and keeps the id
     * sequence from handing out 1 again. Null when the username or e-mail is taken.
     */
    async insertOwner(user: NewUser): Promise<number | null> {
      try {
        const [row] = await db
          .insert(users)
          .values({ ...user, id: SITE_OWNER_ID })
          .returning({ id: users.id });
        await this.keepOwnerIdFree();
        return row.id;
      } catch (err) {
        if (isUniqueViolation(err)) return null;
        throw err;
      }
    },

    async addRoles(userId: number, roleNames: readonly RoleName[]) {
      if (roleNames.length === 0) return;
      const rows = await db
        .select({ id: roles.id })
        .from(roles)
        .where(inArray(roles.name, [...roleNames]));
      await db
        .insert(userRoles)
        .values(rows.map((r) => ({ userId, roleId: r.id })))
        .onConflictDoNothing();
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

    async setPasswordHash(userId: number, passwordHash: string) {
      await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
    },

    async markEmailVerified(userId: number) {
      await db.update(users).set({ emailVerified: true }).where(eq(users.id, userId));
    },
  };
}
export type UsersRepo = ReturnType<typeof createUsersRepo>;
