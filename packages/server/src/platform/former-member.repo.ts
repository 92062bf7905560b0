import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema/index.ts';

/**
 * The account that holds what a deleted account handed over (decision 041). Its name has a space,
 * which no username chosen on the site may have; its password hash is not a hash, so it cannot sign
 * in, and it is suspended. Staff holding WRITE_ALL_FILES review and publish what it holds.
 */
const FORMER_MEMBER_USERNAME = 'Former member';
const NOT_A_HASH = '!';

const isFormerMember = and(
  sql`lower(${users.username}) = lower(${FORMER_MEMBER_USERNAME})`,
  eq(users.passwordHash, NOT_A_HASH),
);

export function createFormerMemberRepo(db: Db) {
  return {
    /** The former-member account's id, or null while nothing was handed over. */
    async find(): Promise<number | null> {
      const [row] = await db.select({ id: users.id }).from(users).where(isFormerMember);
      return row?.id ?? null;
    },

    /** The former-member account's id, made on first use. */
    async findOrCreate(now: Date): Promise<number> {
      await db
        .insert(users)
        .values({
          username: FORMER_MEMBER_USERNAME,
          email: 'former-member@invalid',
          passwordHash: NOT_A_HASH,
          suspendedAt: now,
        })
        .onConflictDoNothing();
      const id = await this.find();
      // Only when an account of that name was somehow made otherwise: hand nothing to it.
      if (id === null) throw new Error('The former-member account name is taken by another account.');
      return id;
    },
  };
}
