import type { AccountExport, DeleteAccountRequest } from '@mesmer/shared/api/account-data';
import type { Db } from '../../db/client.ts';
import { isSiteOwner, requirePermission, type SessionUser } from '../../platform/access.ts';
import type { Clock } from '../../platform/clock.ts';
import { Unauthorized } from '../../platform/errors.ts';
import { createFormerMemberRepo } from '../../platform/former-member.repo.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { FileEditingService } from '../files/file-editing.service.ts';
import type { MessagesHub } from '../messages/index.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import type { AvatarService } from '../users/avatar.service.ts';
import { createAccountDataRepo } from './account-data.repo.ts';

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/** Data rights: download everything kept about my account; delete it (docs/security.md). */
export type AccountDataService = ReturnType<typeof createAccountDataService>;

export function createAccountDataService({
  db,
  clock,
  auth,
  fileEditing,
  uploads,
  avatars,
  hub,
}: {
  db: Db;
  clock: Clock;
  auth: AuthService;
  fileEditing: FileEditingService;
  uploads: UploadsService;
  avatars: AvatarService;
  hub: MessagesHub;
}) {
  const repo = createAccountDataRepo(db);
  const formerMembers = createFormerMemberRepo(db);

  return {
    async exportOf(user: SessionUser): Promise<AccountExport> {
      const account = await repo.account(user.id);
      if (!account) throw new Unauthorized();
      const all = await repo.everything(user.id);
      return {
        exportedAt: iso(clock.now()),
        profile: {
          id: account.id,
          username: account.username,
          email: account.email,
          emailVerified: account.emailVerified,
          biography: account.biography,
          imageURL: account.imageUrl,
          points: account.points,
          streak: account.streak,
          timezone: account.timezone,
          createdAt: iso(account.createdAt),
          roles: all.roles,
          settings: {
            censorTriggers: account.censorTriggers,
            hideLockedFiles: account.hideLockedFiles,
            insightsOptOut: account.insightsOptOut,
            vibrationOffset: account.vibrationOffset,
            maxVibration: account.maxVibration,
          },
          triggers: all.triggers,
        },
        files: all.files.map((f) => ({ ...f, createdAt: iso(f.createdAt) })),
        playlists: all.playlists.map((p) => ({
          uuid: p.uuid,
          name: p.name,
          description: p.description,
          isPublic: p.isPublic,
          dateCreated: iso(p.dateCreated),
          files: p.files,
        })),
        plans: all.plansCreated.map((p) => ({ ...p, dateCreated: iso(p.dateCreated) })),
        triggersCreated: all.triggersCreated.map((t) => ({ ...t, createdAt: iso(t.createdAt) })),
        ratings: all.ratings,
        planProgress: all.plans,
        listeningHistory: all.listening.map((s) => ({
          fileUuid: s.fileUuid,
          fileName: s.fileName,
          startedAt: iso(s.startedAt),
          endedAt: isoOrNull(s.endedAt),
          points: s.points,
          offline: s.offline,
          creditedMs: s.creditedMs,
          source: s.source,
          toyConnected: s.toyConnected,
        })),
        listeningDays: all.listeningDays,
        offlineCopies: all.offlineCopies.map((c) => ({ ...c, copiedAt: iso(c.copiedAt) })),
        threads: all.threads.map((t) => ({ ...t, hiddenAt: isoOrNull(t.hiddenAt) })),
        messagesSent: all.sent.map((m) => ({
          threadId: m.threadId,
          message: m.message,
          sentAt: iso(m.sentAt),
        })),
        friends: all.friends.map((f) => ({
          username: f.username,
          since: isoOrNull(f.since ?? f.requested),
          accepted: f.since !== null,
        })),
        blocked: all.blocked.map((b) => ({ username: b.username, since: iso(b.since) })),
        memberships: all.memberships.map((m) => ({ ...m, lastVerified: isoOrNull(m.lastVerified) })),
        patreon: all.patreon && {
          ...all.patreon,
          linkedAt: iso(all.patreon.linkedAt),
          lastVerified: iso(all.patreon.lastVerified),
        },
        lovense: {
          connection: all.lovense.connection && {
            ...all.lovense.connection,
            updatedAt: iso(all.lovense.connection.updatedAt),
          },
          toys: all.lovense.toys.map((t) => ({ ...t, updatedAt: iso(t.updatedAt) })),
        },
        reportsFiled: all.reportsFiled.map((r) => ({ ...r, createdAt: iso(r.createdAt) })),
        signInSessions: all.signInSessions.map((s) => ({
          createdAt: iso(s.createdAt),
          lastSeenAt: iso(s.lastSeenAt),
          expiresAt: iso(s.expiresAt),
        })),
        uploadsInProgress: all.uploadsInProgress.map((u) => ({ ...u, createdAt: iso(u.createdAt) })),
      };
    },

    /**
     * After the password again (a wrong one counts as a failed sign-in): the uploads in progress and
     * the avatar go with their bytes; files and playlists are deleted (with their media) or handed to
     * the former-member account, unlisted until staff review them; then the account row, which takes
     * every row of its own with it.
     */
    async deleteAccount(user: SessionUser, input: DeleteAccountRequest): Promise<void> {
      requirePermission(user, (u) => !isSiteOwner(u), 'The site owner’s account cannot be deleted.');
      const account = await repo.account(user.id);
      if (!account) throw new Unauthorized();
      await auth.requirePassword(account, input.password, 'The password is not right.');
      for (const { uuid } of await repo.uploadsOf(user.id)) await uploads.cancel(user, uuid);
      if (input.content === 'transfer') {
        // Never to the site owner: what the account wrote must not become the site's word.
        const formerMember = await formerMembers.findOrCreate(clock.now());
        await repo.transferFiles(user.id, formerMember);
        await repo.transferPlaylists(user.id, formerMember);
      } else {
        await fileEditing.removeAllOf(user.id);
      }
      await avatars.removeStored(account.imageUrl);
      await repo.deleteAccount(user.id);
      hub.disconnectUser?.(user.id);
    },
  };
}
