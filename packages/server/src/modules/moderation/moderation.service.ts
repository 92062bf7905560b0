import type {
  BlockedUser,
  ModerationActionRequest,
  ModerationLogEntry,
  ModerationReport,
  ReportRequest,
} from '@mesmer/shared/api/moderation';
import {
  canModerate,
  type ModerationAction,
  REPORTS_PER_HOUR,
  type ReportSubjectType,
  suspensionRefusal,
} from '@mesmer/shared/domain/moderation';
import type { Db } from '../../db/client.ts';
import { type Access, requirePermission, type SessionUser } from '../../platform/access.ts';
import type { Clock } from '../../platform/clock.ts';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../platform/errors.ts';
import type { Limit, RateLimiter } from '../../platform/rate-limit.ts';
import type { FileEditingService } from '../files/file-editing.service.ts';
import type { MessagesHub } from '../messages/index.ts';
import type { PlaylistsService } from '../playlists/playlists.service.ts';
import type { AvatarService } from '../users/avatar.service.ts';
import { createModerationRepo, type ReportRow, type SubjectRow } from './moderation.repo.ts';

const REPORT_LIMIT: Limit = { name: 'reports', max: REPORTS_PER_HOUR, windowMs: 60 * 60 * 1000 };

const NOT_FOUND: Record<ReportSubjectType, string> = {
  user: 'User not found.',
  file: 'File not found.',
  playlist: 'Playlist not found.',
  thread: 'Thread not found.',
};

function pagePath(type: ReportSubjectType, subject: SubjectRow): string | null {
  if (type === 'file') return `/file/${subject.key}`;
  if (type === 'playlist') return `/playlist/${subject.key}`;
  if (type === 'user') return `/user/${encodeURIComponent(subject.key)}`;
  return null;
}

const ref = (id: number | null, username: string | null) =>
  id !== null && username !== null ? { id, username } : null;

export type ModerationService = ReturnType<typeof createModerationService>;

export function createModerationService({
  db,
  clock,
  limiter,
  access,
  fileEditing,
  playlists,
  avatars,
  hub,
}: {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  access: Access;
  /** What a moderator's `remove` takes away goes the way its owner's delete would. */
  fileEditing: FileEditingService;
  playlists: PlaylistsService;
  avatars: AvatarService;
  hub: MessagesHub;
}) {
  const repo = createModerationRepo(db);

  /** A report with what it is about, as the queue shows it. */
  async function present(row: ReportRow): Promise<ModerationReport> {
    const type = row.subjectType as ReportSubjectType;
    const [subject, messages] = await Promise.all([
      repo.subject(type, row.subjectId),
      type === 'thread' ? repo.threadMessages(row.subjectId, row.createdAt) : [],
    ]);
    return {
      id: row.id,
      subjectType: type,
      subjectId: row.subjectId,
      reason: row.reason,
      createdAt: row.createdAt.toISOString(),
      reporter: ref(row.reporterId, row.reporterName),
      reportedUser:
        row.reportedId !== null && row.reportedName !== null
          ? { id: row.reportedId, username: row.reportedName, suspended: row.reportedSuspendedAt !== null }
          : null,
      subject: {
        exists: type === 'thread' || subject !== null,
        title: subject?.title ?? null,
        text: subject?.text ?? null,
        path: subject ? pagePath(type, subject) : null,
      },
      messages: messages.map((m) => ({
        id: m.id,
        user: ref(m.senderId, m.senderName),
        message: m.removedAt ? '' : m.message,
        removed: m.removedAt !== null,
        createdAt: m.createdAt.toISOString(),
      })),
      resolution: row.resolution as ModerationAction | null,
      resolvedBy: ref(row.resolvedById, row.resolvedByName),
      resolvedAt: row.resolvedAt?.toISOString() ?? null,
    };
  }

  async function openReport(id: number): Promise<ReportRow> {
    const {
      rows: [row],
    } = await repo.reports(true, 1, 0, id);
    if (!row) throw new NotFound('Report not found.');
    if (row.resolution !== null) throw new Conflict('This report is already closed.');
    return row;
  }

  /** Takes away what a report is about: the named message of a thread, the file, the playlist, or a profile's text and picture. */
  async function removeSubject(moderator: SessionUser, report: ReportRow, messageId: number | undefined) {
    const type = report.subjectType as ReportSubjectType;
    if (type === 'thread') {
      if (messageId === undefined) throw new BadRequest('messageId', 'must name the message to remove.');
      if (!(await repo.removeMessage(report.subjectId, messageId, clock.now())))
        throw new NotFound('Message not found in this conversation.');
      return;
    }
    // Already gone (its owner deleted it): nothing left to remove.
    if (!(await repo.subject(type, report.subjectId))) return;
    if (type === 'file') await fileEditing.remove(moderator, report.subjectId);
    if (type === 'playlist') await playlists.removeReported(report.subjectId);
    if (type === 'user') {
      await avatars.clear(report.subjectId);
      await repo.clearBiography(report.subjectId);
    }
  }

  async function suspendReported(moderator: SessionUser, report: ReportRow) {
    if (report.reportedId === null) throw new BadRequest('action', 'this report names no one to suspend.');
    const refusal = suspensionRefusal(moderator, {
      id: report.reportedId,
      roles: await repo.rolesOf(report.reportedId),
    });
    if (refusal) throw new Forbidden(refusal);
    await repo.suspend(report.reportedId, clock.now());
    hub.disconnectUser?.(report.reportedId);
  }

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
        clock.now(),
      );
      return { blocked: others, reportId };
    },
    unblock: (user: SessionUser, userId: number) => repo.unblock(user.id, userId),
    async blocks(user: SessionUser): Promise<{ users: BlockedUser[] }> {
      const rows = await repo.listBlocks(user.id);
      return { users: rows.map((r) => ({ ...r, blockedAt: r.blockedAt.toISOString() })) };
    },

    /** Files a report of something the user can see; 404 for what they cannot, as if it did not exist. */
    async report(user: SessionUser, body: ReportRequest & { reason: string }): Promise<{ id: number }> {
      await limiter.consume(REPORT_LIMIT, String(user.id));
      const { subjectType, subjectId } = body;
      const viewer = await access.viewer(user);
      const visible =
        subjectType === 'file'
          ? (await access.files.visible(viewer, [subjectId])).has(subjectId)
          : subjectType === 'playlist'
            ? (await access.playlists.visible(viewer, [subjectId])).has(subjectId)
            : true;
      const subject = visible ? await repo.subject(subjectType, subjectId) : null;
      if (!subject) throw new NotFound(NOT_FOUND[subjectType]);
      if (subjectType === 'user' && subjectId === user.id)
        throw new BadRequest('subjectId', 'you cannot report yourself.');
      const id = await repo.fileReport({
        reporterId: user.id,
        subjectType,
        subjectId,
        reportedUserId: subject.ownerId,
        reason: body.reason,
        createdAt: clock.now(),
      });
      return { id };
    },

    async queue(
      user: SessionUser | null,
      query: { status: 'open' | 'closed'; pageSize: number; pageOffset: number },
    ): Promise<{ reports: ModerationReport[]; totalItems: number }> {
      requirePermission(user, canModerate);
      const { rows, total } = await repo.reports(query.status === 'open', query.pageSize, query.pageOffset);
      return { reports: await Promise.all(rows.map(present)), totalItems: total };
    },

    /** Closes a report with an action, recorded in the log with who and when. */
    async act(
      user: SessionUser | null,
      reportId: number,
      body: ModerationActionRequest,
    ): Promise<{ report: ModerationReport }> {
      const moderator = requirePermission(user, canModerate);
      const report = await openReport(reportId);
      if (body.action === 'remove') await removeSubject(moderator, report, body.messageId);
      if (body.action === 'suspend') await suspendReported(moderator, report);
      const closed = await repo.close(
        { id: report.id, subjectType: report.subjectType as ReportSubjectType, subjectId: report.subjectId },
        body.action,
        moderator.id,
        body.note ?? '',
        clock.now(),
      );
      if (!closed) throw new Conflict('This report is already closed.');
      const {
        rows: [row],
      } = await repo.reports(false, 1, 0, reportId);
      return { report: await present(row) };
    },

    async log(
      user: SessionUser | null,
      query: { pageSize: number; pageOffset: number },
    ): Promise<{ entries: ModerationLogEntry[]; totalItems: number }> {
      requirePermission(user, canModerate);
      const { rows, total } = await repo.log(query.pageSize, query.pageOffset);
      return {
        entries: rows.map((r) => ({
          id: r.id,
          moderator: ref(r.moderatorId, r.moderatorName),
          action: r.action as ModerationAction,
          reportId: r.reportId,
          subjectType: r.subjectType as ReportSubjectType,
          subjectId: r.subjectId,
          note: r.note,
          createdAt: r.createdAt.toISOString(),
        })),
        totalItems: total,
      };
    },
  };
}
