import type { BlockedUser } from '@mesmer/shared/api/moderation';
import type { SessionUser } from '../../platform/access.ts';
import type { AppContext } from '../../platform/context.ts';
import { NotFound } from '../../platform/errors.ts';
import { createModerationRepo } from './moderation.repo.ts';

export function createModerationService(ctx: AppContext) {
  const repo = createModerationRepo(ctx.db);
  return {
    async block(
      user: SessionUser,
      body: { threadId: number; report: boolean; reportMessage?: string },
    ): Promise<{ blocked: number[]; reportId: number | null }> {
      const others = await repo.otherMembers(body.threadId, user.id);
      if (!others) throw new NotFound('Thread not found.');
      const reportId = await repo.block(
        user.id,
        body.threadId,
        others,
        body.report ? { reason: body.reportMessage ?? '' } : null,
      );
      return { blocked: others, reportId };
    },
    unblock: (user: SessionUser, userId: number) => repo.unblock(user.id, userId),
    async blocks(user: SessionUser): Promise<{ users: BlockedUser[] }> {
      const rows = await repo.listBlocks(user.id);
      return { users: rows.map((r) => ({ ...r, blockedAt: r.blockedAt.toISOString() })) };
    },
  };
}
