import { and, eq, gt, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { emailTokens } from '../../db/schema/index.ts';

export type EmailTokenPurpose = (typeof emailTokens.$inferInsert)['purpose'];

/** Single-use links sent by e-mail; only the token's hash is stored. */
export function createEmailTokenRepo(db: Db) {
  return {
    async insert(tokenHash: string, userId: number, purpose: EmailTokenPurpose, expiresAt: Date) {
      await db.insert(emailTokens).values({ tokenHash, userId, purpose, expiresAt });
    },

    /**
     * Marks a live, unused token as used and answers its user id; null when the
     * token is unknown, for another purpose, expired or already used. One UPDATE,
     * so two concurrent uses cannot both succeed.
     */
    async consume(tokenHash: string, purpose: EmailTokenPurpose, now: Date): Promise<number | null> {
      const [row] = await db
        .update(emailTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(emailTokens.tokenHash, tokenHash),
            eq(emailTokens.purpose, purpose),
            isNull(emailTokens.usedAt),
            gt(emailTokens.expiresAt, now),
          ),
        )
        .returning({ userId: emailTokens.userId });
      return row?.userId ?? null;
    },

    /** Deletes tokens that were used or expired by `now` (nothing can consume them any more); answers how many. */
    async deleteSpent(now: Date): Promise<number> {
      const rows = await db
        .delete(emailTokens)
        .where(or(isNotNull(emailTokens.usedAt), lte(emailTokens.expiresAt, now)))
        .returning({ userId: emailTokens.userId });
      return rows.length;
    },

    /** Ends every other unused token of this purpose (e.g. older reset links once the password changed). */
    async useAllFor(userId: number, purpose: EmailTokenPurpose, now: Date) {
      await db
        .update(emailTokens)
        .set({ usedAt: now })
        .where(
          and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)),
        );
    },
  };
}
