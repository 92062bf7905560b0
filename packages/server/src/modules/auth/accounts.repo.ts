import { type RoleName, SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { roles, userRoles, users } from '../../db/schema/index.ts';

/**
 * Accounts as sign-in, sign-up, password reset and the operator's commands see them: finding one
 * by what was typed, creating one (the owner's id 1 kept for the operator), roles and credentials.
 * Profiles and settings are the users module's (users.repo.ts).
 */
export type AccountRow = typeof users.$inferSelect;

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

export function createAccountsRepo(db: Db) {
  return {
    async findById(id: number): Promise<AccountRow | null> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row ?? null;
    },

    async findByUsername(username: string): Promise<AccountRow | null> {
      const [row] = await db.select().from(users).where(byLowerUsername(username));
      return row ?? null;
    },

    /** Login accepts the username or the e-mail address, both case-insensitive. */
    async findByLogin(login: string): Promise<AccountRow | null> {
      const [row] = await db
        .select()
        .from(users)
        .where(sql`${byLowerUsername(login)} or ${byLowerEmail(login)}`);
      return row ?? null;
    },

    async findByUsernameAndEmail(username: string, email: string): Promise<AccountRow | null> {
      const [row] = await db
        .select()
        .from(users)
        .where(and(byLowerUsername(username), byLowerEmail(email)));
      return row ?? null;
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

    async setPasswordHash(userId: number, passwordHash: string) {
      await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
    },

    async markEmailVerified(userId: number) {
      await db.update(users).set({ emailVerified: true }).where(eq(users.id, userId));
    },
  };
}
