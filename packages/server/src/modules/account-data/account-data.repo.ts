import { asc, eq, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import {
  authSessions,
  blocks,
  files,
  friendships,
  insightsListenerDays,
  listeningSessions,
  lovenseConnections,
  lovenseToys,
  membershipTiers,
  messages,
  offlineCopies,
  patreonLinks,
  playlistFiles,
  playlistRatings,
  playlists,
  reports,
  roles,
  series,
  seriesPlaylists,
  threadMembers,
  threads,
  triggers,
  uploads,
  userMemberships,
  userRoles,
  userSeries,
  users,
  userTriggers,
} from '../../db/schema/index.ts';

/** Reads and removes everything kept about one account (data rights: export and deletion). */
export function createAccountDataRepo(db: Db) {
  return {
    async account(userId: number) {
      const [row] = await db.select().from(users).where(eq(users.id, userId));
      return row ?? null;
    },

    async everything(userId: number) {
      const other = alias(users, 'other');
      const [roleRows, triggerRows, fileRows, playlistRows, ratingRows, planRows, sessionRows, sentRows] =
        await Promise.all([
          db
            .select({ name: roles.name })
            .from(userRoles)
            .innerJoin(roles, eq(roles.id, userRoles.roleId))
            .where(eq(userRoles.userId, userId)),
          db
            .select({ name: triggers.name, trainingAmount: userTriggers.trainingAmount })
            .from(userTriggers)
            .innerJoin(triggers, eq(triggers.id, userTriggers.triggerId))
            .where(eq(userTriggers.userId, userId)),
          db
            .select({
              uuid: files.uuid,
              name: files.name,
              description: files.description,
              isPublic: files.isPublic,
              createdAt: files.createdAt,
            })
            .from(files)
            .where(or(eq(files.authorId, userId), eq(files.uploaderId, userId)))
            .orderBy(asc(files.id)),
          db.select().from(playlists).where(eq(playlists.creatorId, userId)).orderBy(asc(playlists.id)),
          db
            .select({
              playlistUuid: playlists.uuid,
              playlistName: playlists.name,
              liked: playlistRatings.liked,
              disliked: playlistRatings.disliked,
              favorite: playlistRatings.favorite,
            })
            .from(playlistRatings)
            .innerJoin(playlists, eq(playlists.id, playlistRatings.playlistId))
            .where(eq(playlistRatings.userId, userId)),
          db
            .select({ planUuid: series.uuid, planName: series.name, position: userSeries.playlistIndex })
            .from(userSeries)
            .innerJoin(series, eq(series.id, userSeries.seriesId))
            .where(eq(userSeries.userId, userId)),
          db
            .select({
              fileUuid: files.uuid,
              fileName: files.name,
              startedAt: listeningSessions.startedAt,
              endedAt: listeningSessions.endedAt,
              points: listeningSessions.points,
              offline: listeningSessions.offline,
              creditedMs: listeningSessions.creditedMs,
              source: listeningSessions.source,
              toyConnected: listeningSessions.toyConnected,
            })
            .from(listeningSessions)
            .leftJoin(files, eq(files.id, listeningSessions.fileId))
            .where(eq(listeningSessions.userId, userId))
            .orderBy(asc(listeningSessions.id)),
          db
            .select({ threadId: messages.threadId, message: messages.message, sentAt: messages.createdAt })
            .from(messages)
            .where(eq(messages.senderId, userId))
            .orderBy(asc(messages.id)),
        ]);
      const listFiles = playlistRows.length
        ? await db
            .select({ playlistId: playlistFiles.playlistId, uuid: files.uuid, name: files.name })
            .from(playlistFiles)
            .innerJoin(files, eq(files.id, playlistFiles.fileId))
            .where(
              inArray(
                playlistFiles.playlistId,
                playlistRows.map((p) => p.id),
              ),
            )
            .orderBy(asc(playlistFiles.playlistId), asc(playlistFiles.position))
        : [];
      const friendRows = await db
        .select({
          username: other.username,
          since: friendships.acceptedAt,
          requested: friendships.createdAt,
        })
        .from(friendships)
        .innerJoin(
          other,
          sql`${other.id} = case when ${friendships.userId} = ${userId} then ${friendships.friendId} else ${friendships.userId} end`,
        )
        .where(or(eq(friendships.userId, userId), eq(friendships.friendId, userId)));
      const blockRows = await db
        .select({ username: other.username, since: blocks.createdAt })
        .from(blocks)
        .innerJoin(other, eq(other.id, blocks.blockedId))
        .where(eq(blocks.blockerId, userId));
      const membershipRows = await db
        .select({
          creatorName: membershipTiers.creatorName,
          tierName: membershipTiers.title,
          active: userMemberships.active,
          cancelled: userMemberships.cancelled,
          lastVerified: userMemberships.lastVerified,
        })
        .from(userMemberships)
        .innerJoin(membershipTiers, eq(membershipTiers.id, userMemberships.tierId))
        .where(eq(userMemberships.userId, userId));
      const planRowsCreated = await db
        .select({
          id: series.id,
          uuid: series.uuid,
          name: series.name,
          description: series.description,
          dateCreated: series.dateCreated,
        })
        .from(series)
        .where(eq(series.creatorId, userId))
        .orderBy(asc(series.id));
      const planPlaylists = planRowsCreated.length
        ? await db
            .select({ seriesId: seriesPlaylists.seriesId, uuid: playlists.uuid, name: playlists.name })
            .from(seriesPlaylists)
            .innerJoin(playlists, eq(playlists.id, seriesPlaylists.playlistId))
            .where(
              inArray(
                seriesPlaylists.seriesId,
                planRowsCreated.map((p) => p.id),
              ),
            )
            .orderBy(asc(seriesPlaylists.seriesId), asc(seriesPlaylists.position))
        : [];
      const triggersCreated = await db
        .select({
          uuid: triggers.uuid,
          name: triggers.name,
          description: triggers.description,
          pending: triggers.pending,
          createdAt: triggers.createdAt,
        })
        .from(triggers)
        .where(eq(triggers.creatorId, userId))
        .orderBy(asc(triggers.id));
      const offlineRows = await db
        .select({ fileUuid: files.uuid, fileName: files.name, copiedAt: offlineCopies.copiedAt })
        .from(offlineCopies)
        .innerJoin(files, eq(files.id, offlineCopies.fileId))
        .where(eq(offlineCopies.userId, userId))
        .orderBy(asc(offlineCopies.copiedAt), asc(offlineCopies.fileId));
      const threadRows = await db
        .select({ id: threads.id, name: threads.name, hiddenAt: threadMembers.hiddenAt })
        .from(threadMembers)
        .innerJoin(threads, eq(threads.id, threadMembers.threadId))
        .where(eq(threadMembers.userId, userId))
        .orderBy(asc(threads.id));
      // Only the linked identity: the OAuth tokens and their expiry stay out.
      const [patreon] = await db
        .select({
          patreonUserId: patreonLinks.patreonUserId,
          patreonName: patreonLinks.patreonName,
          linkedAt: patreonLinks.linkedAt,
          lastVerified: patreonLinks.lastVerified,
        })
        .from(patreonLinks)
        .where(eq(patreonLinks.userId, userId));
      const [lovenseConnection] = await db
        .select({
          domain: lovenseConnections.domain,
          httpsPort: lovenseConnections.httpsPort,
          httpPort: lovenseConnections.httpPort,
          wsPort: lovenseConnections.wsPort,
          wssPort: lovenseConnections.wssPort,
          appType: lovenseConnections.appType,
          platform: lovenseConnections.platform,
          appVersion: lovenseConnections.appVersion,
          updatedAt: lovenseConnections.updatedAt,
        })
        .from(lovenseConnections)
        .where(eq(lovenseConnections.userId, userId));
      const toyRows = await db
        .select({
          id: lovenseToys.toyId,
          name: lovenseToys.name,
          nickName: lovenseToys.nickName,
          connected: lovenseToys.connected,
          updatedAt: lovenseToys.updatedAt,
        })
        .from(lovenseToys)
        .where(eq(lovenseToys.userId, userId))
        .orderBy(asc(lovenseToys.toyId));
      // What was reported and why; the moderators' decision is theirs, not the reporter's data.
      const reportRows = await db
        .select({
          subjectType: reports.subjectType,
          subjectId: reports.subjectId,
          reason: reports.reason,
          createdAt: reports.createdAt,
        })
        .from(reports)
        .where(eq(reports.reporterId, userId))
        .orderBy(asc(reports.id));
      const signInRows = await db
        .select({
          createdAt: authSessions.createdAt,
          lastSeenAt: authSessions.lastSeenAt,
          expiresAt: authSessions.expiresAt,
        })
        .from(authSessions)
        .where(eq(authSessions.userId, userId))
        .orderBy(asc(authSessions.createdAt));
      const uploadRows = await db
        .select({
          uuid: uploads.uuid,
          fileName: uploads.fileName,
          state: uploads.state,
          createdAt: uploads.createdAt,
        })
        .from(uploads)
        .where(eq(uploads.userId, userId))
        .orderBy(asc(uploads.createdAt));
      const listeningDayRows = await db
        .select({ day: insightsListenerDays.day, listenedMs: insightsListenerDays.listenedMs })
        .from(insightsListenerDays)
        .where(eq(insightsListenerDays.userId, userId))
        .orderBy(asc(insightsListenerDays.day));
      return {
        roles: roleRows.map((r) => r.name),
        triggers: triggerRows,
        files: fileRows,
        playlists: playlistRows.map((p) => ({
          ...p,
          files: listFiles.filter((f) => f.playlistId === p.id).map(({ uuid, name }) => ({ uuid, name })),
        })),
        ratings: ratingRows,
        plans: planRows,
        listening: sessionRows,
        listeningDays: listeningDayRows,
        sent: sentRows,
        friends: friendRows,
        blocked: blockRows,
        memberships: membershipRows,
        plansCreated: planRowsCreated.map(({ id, ...p }) => ({
          ...p,
          playlists: planPlaylists.filter((l) => l.seriesId === id).map(({ uuid, name }) => ({ uuid, name })),
        })),
        triggersCreated,
        offlineCopies: offlineRows,
        threads: threadRows,
        patreon: patreon ?? null,
        lovense: { connection: lovenseConnection ?? null, toys: toyRows },
        reportsFiled: reportRows,
        signInSessions: signInRows,
        uploadsInProgress: uploadRows,
      };
    },

    /** The account's uploads still in progress (their bytes go before the rows). */
    async uploadsOf(userId: number) {
      return db.select({ uuid: uploads.uuid }).from(uploads).where(eq(uploads.userId, userId));
    },

    /**
     * The account's playlists and plans become `toUserId`'s (the former-member account): the
     * playlists private and never core, until staff review them (decision 041).
     */
    async transferPlaylists(userId: number, toUserId: number) {
      await db
        .update(playlists)
        .set({ creatorId: toUserId, isPublic: false, isCore: false })
        .where(eq(playlists.creatorId, userId));
      await db.update(series).set({ creatorId: toUserId }).where(eq(series.creatorId, userId));
    },

    /**
     * The account's files become `toUserId`'s (the former-member account), as author and as
     * uploader; the ones it wrote turn private until staff review them (decision 041).
     */
    async transferFiles(userId: number, toUserId: number) {
      await db.update(files).set({ authorId: toUserId, isPublic: false }).where(eq(files.authorId, userId));
      await db.update(files).set({ uploaderId: toUserId }).where(eq(files.uploaderId, userId));
    },

    /**
     * Removes the account row; every row of its own goes with it (foreign keys cascade) and its messages
     * stay without a sender. The like, dislike and favourite counts of the playlists it rated are
     * counted again without its ratings.
     */
    async deleteAccount(userId: number) {
      const rated = await db
        .select({ id: playlistRatings.playlistId })
        .from(playlistRatings)
        .where(eq(playlistRatings.userId, userId));
      await db.delete(playlists).where(eq(playlists.creatorId, userId));
      await db.delete(series).where(eq(series.creatorId, userId));
      await db.delete(users).where(eq(users.id, userId));
      const ids = rated.map((r) => r.id);
      if (ids.length === 0) return;
      await db.execute(sql`update ${playlists} p set
          likes = (select count(*) from ${playlistRatings} r where r.playlist_id = p.id and r.liked),
          dislikes = (select count(*) from ${playlistRatings} r where r.playlist_id = p.id and r.disliked),
          favorites = (select count(*) from ${playlistRatings} r where r.playlist_id = p.id and r.favorite)
        where ${inArray(sql`p.id`, ids)}`);
    },
  };
}
