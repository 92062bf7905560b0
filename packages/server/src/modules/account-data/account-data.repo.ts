import { asc, eq, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import {
  blocks,
  files,
  friendships,
  listeningSessions,
  membershipTiers,
  messages,
  playlistFiles,
  playlistRatings,
  playlists,
  roles,
  series,
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
        sent: sentRows,
        friends: friendRows,
        blocked: blockRows,
        memberships: membershipRows,
      };
    },

    /** The account's uploads still in progress (their bytes go before the rows). */
    async uploadsOf(userId: number) {
      return db.select({ uuid: uploads.uuid }).from(uploads).where(eq(uploads.userId, userId));
    },

    /** The account's playlists and plans become `toUserId`'s (the site owner's). */
    async transferPlaylists(userId: number, toUserId: number) {
      await db.update(playlists).set({ creatorId: toUserId }).where(eq(playlists.creatorId, userId));
      await db.update(series).set({ creatorId: toUserId }).where(eq(series.creatorId, userId));
    },

    /** The account's files become `toUserId`'s, as author and as uploader. */
    async transferFiles(userId: number, toUserId: number) {
      await db.update(files).set({ authorId: toUserId }).where(eq(files.authorId, userId));
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
