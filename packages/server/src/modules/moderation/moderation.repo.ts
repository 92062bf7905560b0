import { and, desc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { blocks, reports, threadMembers, users } from '../../db/schema/index.ts';

export function createModerationRepo(db: Db) {
  return {
    async otherMembers(threadId: number, userId: number): Promise<number[] | null> {
      const rows = await db
        .select({ userId: threadMembers.userId })
        .from(threadMembers)
        .where(eq(threadMembers.threadId, threadId));
      if (!rows.some((r) => r.userId === userId)) return null;
      return rows.map((r) => r.userId).filter((id) => id !== userId);
    },

    async block(
      blockerId: number,
      threadId: number,
      blockedIds: number[],
      report: { reason: string } | null,
    ): Promise<number | null> {
      return db.transaction(async (tx) => {
        if (blockedIds.length > 0) {
          await tx
            .insert(blocks)
            .values(blockedIds.map((blockedId) => ({ blockerId, blockedId })))
            .onConflictDoNothing();
        }
        await tx
          .update(threadMembers)
          .set({ hiddenAt: new Date() })
          .where(and(eq(threadMembers.threadId, threadId), eq(threadMembers.userId, blockerId)));
        if (!report) return null;
        const [row] = await tx
          .insert(reports)
          .values({
            reporterId: blockerId,
            subjectType: 'thread',
            subjectId: threadId,
            reportedUserId: blockedIds.length === 1 ? blockedIds[0] : null,
            reason: report.reason,
          })
          .returning({ id: reports.id });
        return row.id;
      });
    },

    async unblock(blockerId: number, blockedId: number): Promise<void> {
      await db.delete(blocks).where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)));
    },

    listBlocks(blockerId: number) {
      return db
        .select({ id: users.id, username: users.username, blockedAt: blocks.createdAt })
        .from(blocks)
        .innerJoin(users, eq(users.id, blocks.blockedId))
        .where(and(eq(blocks.blockerId, blockerId), ne(blocks.blockedId, blockerId)))
        .orderBy(desc(blocks.createdAt), desc(blocks.blockedId));
    },
  };
}
