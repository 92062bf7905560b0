import { and, asc, eq, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  membershipTiers,
  oauthStates,
  patreonLinks,
  patreonWebhookDeliveries,
  userMemberships,
  users,
} from '../../db/schema/index.ts';

export type PatreonLinkRow = typeof patreonLinks.$inferSelect;
export type TierRow = typeof membershipTiers.$inferSelect;

/** The state a membership is set to. */
export interface MembershipState {
  active: boolean;
  cancelled: boolean;
  lastVerified: Date;
  /** When an active membership ends by itself (a cancelled patron's paid period); null: it does not. */
  entitledUntil: Date | null;
}

/** Patreon links, their OAuth states, the membership tiers they map to and users' memberships. */
export function createPatreonRepo(db: Db) {
  return {
    /** Keeps a new state; the user's states from before `expiredBefore` go. */
    async saveState(row: typeof oauthStates.$inferInsert & { createdAt: Date }, expiredBefore: Date) {
      await db
        .delete(oauthStates)
        .where(and(eq(oauthStates.userId, row.userId), lt(oauthStates.createdAt, expiredBefore)));
      await db.insert(oauthStates).values(row);
    },

    /** Removes and answers a state: each is used at most once. */
    async takeState(stateHash: string) {
      const [row] = await db.delete(oauthStates).where(eq(oauthStates.stateHash, stateHash)).returning();
      return row ?? null;
    },

    async linkOf(userId: number): Promise<PatreonLinkRow | null> {
      const [row] = await db.select().from(patreonLinks).where(eq(patreonLinks.userId, userId));
      return row ?? null;
    },

    /** The users (at most one, normally) a Patreon account is linked to. */
    async usersLinkedTo(patreonUserId: string): Promise<number[]> {
      const rows = await db
        .select({ userId: patreonLinks.userId })
        .from(patreonLinks)
        .where(eq(patreonLinks.patreonUserId, patreonUserId));
      return rows.map((r) => r.userId);
    },

    async saveLink(row: typeof patreonLinks.$inferInsert) {
      const { userId: _, ...changes } = row;
      await db
        .insert(patreonLinks)
        .values(row)
        .onConflictDoUpdate({ target: patreonLinks.userId, set: changes });
    },

    async saveTokens(userId: number, tokens: { accessToken: string; refreshToken: string; expiresAt: Date }) {
      await db.update(patreonLinks).set(tokens).where(eq(patreonLinks.userId, userId));
    },

    async markVerified(userId: number, at: Date) {
      await db.update(patreonLinks).set({ lastVerified: at }).where(eq(patreonLinks.userId, userId));
    },

    /** Forgets the link and every membership of the user (they all come from Patreon). */
    async unlink(userId: number) {
      await db.delete(userMemberships).where(eq(userMemberships.userId, userId));
      await db.delete(patreonLinks).where(eq(patreonLinks.userId, userId));
    },

    async deleteAllMemberships(userId: number) {
      await db.delete(userMemberships).where(eq(userMemberships.userId, userId));
    },

    async userByUsername(username: string) {
      const [row] = await db
        .select({ id: users.id, username: users.username })
        .from(users)
        .where(sql`lower(${users.username}) = lower(${username})`);
      return row ?? null;
    },

    async tiersByIds(ids: string[]): Promise<TierRow[]> {
      if (ids.length === 0) return [];
      return db.select().from(membershipTiers).where(inArray(membershipTiers.id, ids));
    },

    async tiersOfCampaign(campaignId: string): Promise<TierRow[]> {
      return db
        .select()
        .from(membershipTiers)
        .where(eq(membershipTiers.campaignId, campaignId))
        .orderBy(asc(membershipTiers.rank), asc(membershipTiers.id));
    },

    async tiersOwnedBy(userId: number): Promise<TierRow[]> {
      return db
        .select()
        .from(membershipTiers)
        .where(eq(membershipTiers.creatorUserId, userId))
        .orderBy(asc(membershipTiers.rank), asc(membershipTiers.id));
    },

    async updateTier(id: string, changes: Partial<Omit<TierRow, 'id'>>) {
      await db.update(membershipTiers).set(changes).where(eq(membershipTiers.id, id));
    },

    async insertTiers(rows: TierRow[]) {
      if (rows.length > 0) await db.insert(membershipTiers).values(rows).onConflictDoNothing();
    },

    /** Inserts or overwrites tiers (the creator's import). */
    async upsertTiers(rows: TierRow[]) {
      for (const { id, ...changes } of rows) {
        await db
          .insert(membershipTiers)
          .values({ id, ...changes })
          .onConflictDoUpdate({ target: membershipTiers.id, set: changes });
      }
    },

    /** Keeps the digest of a webhook body; false when it was kept before (the body is a replay). */
    async recordDelivery(digest: string, at: Date): Promise<boolean> {
      const rows = await db
        .insert(patreonWebhookDeliveries)
        .values({ digest, receivedAt: at })
        .onConflictDoNothing()
        .returning({ digest: patreonWebhookDeliveries.digest });
      return rows.length > 0;
    },

    /**
     * Memberships whose paid period is over turn inactive (of one user, or of everyone). Looked for
     * first: any write to user_memberships, even of no row, raises the session generation.
     */
    async endPaidPeriods(now: Date, userId?: number): Promise<number> {
      const ended = and(
        eq(userMemberships.active, true),
        lte(userMemberships.entitledUntil, now),
        userId === undefined ? undefined : eq(userMemberships.userId, userId),
      );
      const [found] = await db
        .select({ userId: userMemberships.userId })
        .from(userMemberships)
        .where(ended)
        .limit(1);
      if (!found) return 0;
      const rows = await db
        .update(userMemberships)
        .set({ active: false })
        .where(ended)
        .returning({ userId: userMemberships.userId });
      return rows.length;
    },

    /** The user's memberships with the campaign of each tier. */
    async membershipCampaignsOf(
      userId: number,
    ): Promise<{ tierId: string; campaignId: string | null; active: boolean }[]> {
      return db
        .select({
          tierId: userMemberships.tierId,
          campaignId: membershipTiers.campaignId,
          active: userMemberships.active,
        })
        .from(userMemberships)
        .innerJoin(membershipTiers, eq(membershipTiers.id, userMemberships.tierId))
        .where(eq(userMemberships.userId, userId));
    },

    async upsertMembership(userId: number, tierId: string, state: MembershipState) {
      await db
        .insert(userMemberships)
        .values({ userId, tierId, ...state })
        .onConflictDoUpdate({ target: [userMemberships.userId, userMemberships.tierId], set: state });
    },

    async updateMemberships(userId: number, tierIds: string[], state: Partial<MembershipState>) {
      if (tierIds.length === 0) return;
      await db
        .update(userMemberships)
        .set(state)
        .where(and(eq(userMemberships.userId, userId), inArray(userMemberships.tierId, tierIds)));
    },

    async deleteMemberships(userId: number, tierIds: string[]) {
      if (tierIds.length === 0) return;
      await db
        .delete(userMemberships)
        .where(and(eq(userMemberships.userId, userId), inArray(userMemberships.tierId, tierIds)));
    },

    /** The memberships as the account page lists them. */
    async membershipsOf(userId: number) {
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
  };
}
