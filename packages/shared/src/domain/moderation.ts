/** Reports and the moderation queue: limits and who may act. */
import { type RoleName, SITE_OWNER_ID } from './permissions.ts';

/** The longest report reason. */
export const REPORT_REASON_MAX = 2000;

/** Reports one user may file per hour (429 beyond it). */
export const REPORTS_PER_HOUR = 10;

/** What users report from a page; 'thread' reports come with a block. */
export const REPORTABLE_SUBJECT_TYPES = ['user', 'file', 'playlist'] as const;
export const REPORT_SUBJECT_TYPES = [...REPORTABLE_SUBJECT_TYPES, 'thread'] as const;
export type ReportSubjectType = (typeof REPORT_SUBJECT_TYPES)[number];

export const MODERATION_ACTIONS = ['dismiss', 'remove', 'suspend'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export const REPORT_STATUSES = ['open', 'closed'] as const;

export const MODERATION_NOTE_MAX = 500;
export const MODERATION_PAGE_SIZE = 20;

/** The queue's labels for what a report is about. */
export const SUBJECT_LABELS: Record<ReportSubjectType, string> = {
  user: 'Profile',
  file: 'File',
  playlist: 'Playlist',
  thread: 'Conversation',
};

type WithRoles = { id?: number; roles: readonly string[] } | null | undefined;

const hasRole = (user: WithRoles, role: RoleName) => !!user && user.roles.includes(role);

/** Moderators and Administrators see the queue and act on reports. */
export function canModerate(user: WithRoles): boolean {
  return hasRole(user, 'Moderator') || hasRole(user, 'Administrator');
}

/**
 * Why `actor` may not suspend `target`, or null when they may: nobody suspends themselves, the
 * site owner or an administrator, and only administrators suspend moderators.
 */
export function suspensionRefusal(
  actor: WithRoles,
  target: { id: number; roles: readonly string[] },
): string | null {
  if (!canModerate(actor)) return 'Only moderators can suspend accounts.';
  if (actor?.id === target.id) return 'You cannot suspend yourself.';
  if (target.id === SITE_OWNER_ID || hasRole(target, 'Administrator'))
    return 'An administrator cannot be suspended.';
  if (hasRole(target, 'Moderator') && !hasRole(actor, 'Administrator'))
    return 'Only an administrator can suspend a moderator.';
  return null;
}
