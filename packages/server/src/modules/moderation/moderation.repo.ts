import type { ModerationAction, ReportSubjectType } from '@mesmer/shared/domain/moderation';
import { and, asc, count, desc, eq, isNotNull, isNull, lte, ne } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Db, withTransaction } from '../../db/client.ts';
import {
  authSessions,
  blocks,
  files,
  messages,
  moderationLog,
  playlists,
  reports,
  roles,
  threadMembers,
  userRoles,
  users,
} from '../../db/schema/index.ts';

/** Messages of a reported thread shown to the moderator, up to the report. */
const CONTEXT_MESSAGES = 20;

const reporter = alias(users, 'reporter');
const reported = alias(users, 'reported');
const resolver = alias(users, 'resolver');
const moderator = alias(users, 'moderator');

const reportColumns = {
  id: reports.id,
  subjectType: reports.subjectType,
  subjectId: reports.subjectId,
  reason: reports.reason,
  createdAt: reports.createdAt,
  reporterId: reporter.id,
  reporterName: reporter.username,
  reportedId: reported.id,
  reportedName: reported.username,
  reportedSuspendedAt: reported.suspendedAt,
  resolution: reports.resolution,
  resolvedById: resolver.id,
  resolvedByName: resolver.username,
  resolvedAt: reports.resolvedAt,
};

export type ReportRow = Awaited<
  ReturnType<ReturnType<typeof createModerationRepo>['reports']>
>['rows'][number];

/** What a report is about, as it is now (null: gone). */
export interface SubjectRow {
  title: string;
  text: string;
  /** The file's or playlist's uuid, or the user's name, for its page. */
  key: string;
  /** Who it belongs to: the reported user. */
  ownerId: number | null;
}

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
      now: Date,
    ): Promise<number | null> {
      return withTransaction(db, async (tx) => {
        if (blockedIds.length > 0) {
          await tx
            .insert(blocks)
            .values(blockedIds.map((blockedId) => ({ blockerId, blockedId })))
            .onConflictDoNothing();
        }
        await tx
          .update(threadMembers)
          .set({ hiddenAt: now })
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
            // The app's clock, like the messages' times: the queue shows the messages up to it.
            createdAt: now,
          })
          .returning({ id: reports.id });
        return row.id;
      });
    },

    async unblock(blockerId: number, blockedId: number): Promise<void> {
      await db.delete(blocks).where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)));
    },

    /** The file, playlist or user a report names, or null when there is none. */
    async subject(type: ReportSubjectType, id: number): Promise<SubjectRow | null> {
      if (type === 'file') {
        const [row] = await db
          .select({ title: files.name, text: files.description, key: files.uuid, ownerId: files.uploaderId })
          .from(files)
          .where(eq(files.id, id));
        return row ?? null;
      }
      if (type === 'playlist') {
        const [row] = await db
          .select({
            title: playlists.name,
            text: playlists.description,
            key: playlists.uuid,
            ownerId: playlists.creatorId,
          })
          .from(playlists)
          .where(eq(playlists.id, id));
        return row ?? null;
      }
      if (type === 'user') {
        const [row] = await db
          .select({ title: users.username, text: users.biography, key: users.username, ownerId: users.id })
          .from(users)
          .where(eq(users.id, id));
        return row ?? null;
      }
      return null;
    },

    async fileReport(report: {
      reporterId: number;
      subjectType: ReportSubjectType;
      subjectId: number;
      reportedUserId: number | null;
      reason: string;
      createdAt: Date;
    }): Promise<number> {
      const [row] = await db.insert(reports).values(report).returning({ id: reports.id });
      return row.id;
    },

    /** Open reports oldest first, or closed ones most recently closed first, with the total. */
    async reports(open: boolean, limit: number, offset: number, id?: number) {
      const where =
        id !== undefined
          ? eq(reports.id, id)
          : open
            ? isNull(reports.resolution)
            : isNotNull(reports.resolution);
      const [rows, [{ total }]] = await Promise.all([
        db
          .select(reportColumns)
          .from(reports)
          .leftJoin(reporter, eq(reporter.id, reports.reporterId))
          .leftJoin(reported, eq(reported.id, reports.reportedUserId))
          .leftJoin(resolver, eq(resolver.id, reports.resolvedBy))
          .where(where)
          .orderBy(
            open ? asc(reports.createdAt) : desc(reports.resolvedAt),
            open ? asc(reports.id) : desc(reports.id),
          )
          .limit(limit)
          .offset(offset),
        db.select({ total: count() }).from(reports).where(where),
      ]);
      return { rows, total };
    },

    /** The thread's messages up to `until`, oldest first. */
    async threadMessages(threadId: number, until: Date) {
      const rows = await db
        .select({
          id: messages.id,
          senderId: users.id,
          senderName: users.username,
          message: messages.message,
          removedAt: messages.removedAt,
          createdAt: messages.createdAt,
        })
        .from(messages)
        .leftJoin(users, eq(users.id, messages.senderId))
        .where(and(eq(messages.threadId, threadId), lte(messages.createdAt, until)))
        .orderBy(desc(messages.id))
        .limit(CONTEXT_MESSAGES);
      return rows.reverse();
    },

    async rolesOf(userId: number): Promise<string[]> {
      const rows = await db
        .select({ name: roles.name })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(eq(userRoles.userId, userId));
      return rows.map((r) => r.name);
    },

    /** Removes a message of the thread (it keeps its place, not its text); false when it is not there. */
    async removeMessage(threadId: number, messageId: number, at: Date): Promise<boolean> {
      const rows = await db
        .update(messages)
        .set({ removedAt: at })
        .where(and(eq(messages.id, messageId), eq(messages.threadId, threadId)))
        .returning({ id: messages.id });
      return rows.length > 0;
    },

    async clearBiography(userId: number): Promise<void> {
      await db.update(users).set({ biography: '' }).where(eq(users.id, userId));
    },

    /** Suspends the account and ends every session of it at once. */
    async suspend(userId: number, at: Date): Promise<void> {
      await withTransaction(db, async (tx) => {
        await tx.update(users).set({ suspendedAt: at }).where(eq(users.id, userId));
        await tx.delete(authSessions).where(eq(authSessions.userId, userId));
      });
    },

    /** Closes the report when still open, with its log entry; false when someone closed it first. */
    async close(
      report: { id: number; subjectType: ReportSubjectType; subjectId: number },
      action: ModerationAction,
      moderatorId: number,
      note: string,
      at: Date,
    ): Promise<boolean> {
      return withTransaction(db, async (tx) => {
        const closed = await tx
          .update(reports)
          .set({ resolution: action, resolvedBy: moderatorId, resolvedAt: at })
          .where(and(eq(reports.id, report.id), isNull(reports.resolution)))
          .returning({ id: reports.id });
        if (closed.length === 0) return false;
        await tx.insert(moderationLog).values({
          moderatorId,
          action,
          reportId: report.id,
          subjectType: report.subjectType,
          subjectId: report.subjectId,
          note,
          createdAt: at,
        });
        return true;
      });
    },

    async log(limit: number, offset: number) {
      const [rows, [{ total }]] = await Promise.all([
        db
          .select({
            id: moderationLog.id,
            moderatorId: moderator.id,
            moderatorName: moderator.username,
            action: moderationLog.action,
            reportId: moderationLog.reportId,
            subjectType: moderationLog.subjectType,
            subjectId: moderationLog.subjectId,
            note: moderationLog.note,
            createdAt: moderationLog.createdAt,
          })
          .from(moderationLog)
          .leftJoin(moderator, eq(moderator.id, moderationLog.moderatorId))
          .orderBy(desc(moderationLog.id))
          .limit(limit)
          .offset(offset),
        db.select({ total: count() }).from(moderationLog),
      ]);
      return { rows, total };
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
