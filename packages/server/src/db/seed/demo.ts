import { randomBytes, randomUUID } from 'node:crypto';
import { SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { createStorage, type Storage } from '../../platform/storage.ts';
import { withTransaction } from '../client.ts';
import {
  files,
  fileTags,
  fileTiers,
  fileTriggers,
  membershipTiers,
  playlistFiles,
  playlistRatings,
  playlists,
  series,
  seriesPlaylists,
  tags,
  triggers,
  userTriggers,
} from '../schema/index.ts';
import { demoHapticCues, encodeWav, renderSound } from './demo-audio.ts';
import {
  DEMO_FILES,
  DEMO_OWNER,
  DEMO_PASSWORD,
  DEMO_PLANS,
  DEMO_PLAYLISTS,
  DEMO_TAGS,
  DEMO_TIERS,
  DEMO_TRIGGERS,
  DEMO_USER_TRIGGERS,
  DEMO_USERS,
  type DemoFile,
  type DemoPlaylist,
} from './demo-catalogue.ts';
import type { SeedAccounts } from './seed-accounts.ts';

const DAY_MS = 86_400_000;

/**
 * Creates the site owner (id 1, docs/decisions/005-content-library.md) when there is
 * none yet. Its password is random: nobody can sign in as it until someone resets it
 * (or `npm run admin` sets one).
 */
async function ensureOwner(accounts: SeedAccounts): Promise<number | null> {
  if (await accounts.exists(SITE_OWNER_ID)) return SITE_OWNER_ID;
  return accounts.createOwner({
    username: DEMO_OWNER,
    email: `${DEMO_OWNER}@demo.mesmer.local`,
    password: randomBytes(24).toString('hex'),
    roles: ['Administrator'],
  });
}

async function ensureCommunityUsers(accounts: SeedAccounts): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const demo of DEMO_USERS) {
    const id =
      (await accounts.idOf(demo.username)) ??
      (await accounts.create({
        username: demo.username,
        email: `${demo.username}@demo.mesmer.local`,
        password: DEMO_PASSWORD,
        biography: demo.biography,
        points: demo.points,
        streak: demo.streak,
        roles: demo.roles,
      }));
    if (id !== null) ids.set(demo.username, id);
  }
  return ids;
}

/** Writes a file's audio, cue list and script; answers the storage keys. */
async function storeMedia(storage: Storage, file: DemoFile, uuid: string, seed: number) {
  const audioKey = `audio/${uuid}.wav`;
  await storage.put(audioKey, encodeWav(renderSound(file.sound, file.seconds, seed)));
  let hapticsKey: string | null = null;
  if (file.haptics) {
    hapticsKey = `haptics/${uuid}.json`;
    await storage.put(hapticsKey, Buffer.from(JSON.stringify(demoHapticCues(file.seconds * 1000, seed))));
  }
  let scriptKey: string | null = null;
  if (file.script) {
    scriptKey = `scripts/${uuid}.txt`;
    await storage.put(scriptKey, Buffer.from(`${file.name}\n\n${file.script}\n`));
  }
  return { audioKey, hapticsKey, scriptKey };
}

/**
 * Seeds the demo library on a fresh install: users, tiers, triggers, tags, ~30 files with
 * generated audio in storage, playlists, ratings and two training plans. Does nothing
 * when the library already has files, so it is safe on every start.
 */
export async function seedDemoLibrary(ctx: AppContext, log: FastifyBaseLogger, accounts: SeedAccounts) {
  const { db } = ctx;
  const [existing] = await db.select({ id: files.id }).from(files).limit(1);
  if (existing) return;
  const started = Date.now();

  const ownerId = await ensureOwner(accounts);
  if (ownerId === null) {
    log.warn('demo library skipped: user id 1 (the site owner) does not exist');
    return;
  }
  const userIds = await ensureCommunityUsers(accounts);
  userIds.set(DEMO_OWNER, ownerId);
  const userId = (username: string) => userIds.get(username) ?? ownerId;
  const now = ctx.clock.now().getTime();
  const daysAgo = (days: number, minutes = 0) => new Date(now - days * DAY_MS - minutes * 60_000);

  const storage = createStorage(ctx.config);
  const media = await Promise.all(
    DEMO_FILES.map(async (file, index) => {
      const uuid = randomUUID();
      return { uuid, ...(await storeMedia(storage, file, uuid, index + 1)) };
    }),
  );

  await withTransaction(db, async (tx) => {
    await tx
      .insert(membershipTiers)
      .values(DEMO_TIERS.map(({ creator, ...tier }) => ({ ...tier, creatorUserId: userId(creator) })))
      .onConflictDoNothing();
    await tx
      .insert(triggers)
      .values(
        DEMO_TRIGGERS.map((t) => ({
          name: t.name,
          description: t.description,
          creatorId: userId(t.creator),
        })),
      )
      .onConflictDoNothing();
    // The core triggers the files use come from the vocabulary (seeded before the demo).
    const triggerRows = await tx.select({ id: triggers.id, name: triggers.name }).from(triggers);
    const triggerId = new Map(triggerRows.map((t) => [t.name, t.id]));
    await tx
      .insert(tags)
      .values(DEMO_TAGS.map((name) => ({ name })))
      .onConflictDoNothing();
    const tagRows = await tx.select({ id: tags.id, name: tags.name }).from(tags);
    const tagId = new Map(tagRows.map((t) => [t.name, t.id]));

    const fileRows = await tx
      .insert(files)
      .values(
        DEMO_FILES.map((file, i) => ({
          uuid: media[i].uuid,
          name: file.name,
          description: file.description,
          fileType: file.fileType,
          trackNumber: file.trackNumber ?? null,
          releaseDate: daysAgo(file.releasedDaysAgo, i),
          isPublic: file.isPublic ?? true,
          plays: file.plays,
          duration: file.seconds * 1000,
          audioKey: media[i].audioKey,
          audioType: 'audio/wav',
          scriptKey: media[i].scriptKey,
          hapticsKey: media[i].hapticsKey,
          warnings: file.warnings ?? [],
          authorId: userId(file.author),
          uploaderId: userId(file.author),
          userUploaded: file.author !== DEMO_OWNER,
        })),
      )
      .returning({ id: files.id });
    const fileId = new Map(DEMO_FILES.map((file, i) => [file.key, fileRows[i].id]));

    const links = DEMO_FILES.map((file, i) => {
      const id = fileRows[i].id;
      return {
        triggers: (file.triggers ?? []).flatMap((t) => {
          const tid = triggerId.get(t.name);
          return tid ? [{ fileId: id, triggerId: tid, trains: t.trains ?? false }] : [];
        }),
        tags: (file.tags ?? []).flatMap((name) => {
          const tid = tagId.get(name);
          return tid ? [{ fileId: id, tagId: tid }] : [];
        }),
        tiers: (file.tiers ?? []).map((tierId) => ({ fileId: id, tierId })),
      };
    });
    await tx.insert(fileTriggers).values(links.flatMap((l) => l.triggers));
    await tx.insert(fileTags).values(links.flatMap((l) => l.tags));
    await tx.insert(fileTiers).values(links.flatMap((l) => l.tiers));

    const insertPlaylist = async (p: DemoPlaylist) => {
      const [row] = await tx
        .insert(playlists)
        .values({
          name: p.name,
          description: p.description,
          expLevel: p.expLevel,
          isCore: p.isCore ?? false,
          isPublic: p.isCore ? true : (p.isPublic ?? false),
          creatorId: userId(p.creator),
          dateCreated: daysAgo(p.createdDaysAgo),
          likes: p.likedBy?.length ?? 0,
          dislikes: p.dislikedBy?.length ?? 0,
          favorites: p.favoritedBy?.length ?? 0,
        })
        .returning({ id: playlists.id });
      await tx.insert(playlistFiles).values(
        p.files.map((key, i) => ({
          playlistId: row.id,
          position: i + 1,
          fileId: fileId.get(key.replace(/^!/, '')) as number,
          disabled: key.startsWith('!'),
        })),
      );
      const ratings = new Map<string, { liked: boolean; disliked: boolean; favorite: boolean }>();
      const rating = (u: string) => ratings.get(u) ?? { liked: false, disliked: false, favorite: false };
      for (const u of p.likedBy ?? []) ratings.set(u, { ...rating(u), liked: true });
      for (const u of p.dislikedBy ?? []) ratings.set(u, { ...rating(u), disliked: true });
      for (const u of p.favoritedBy ?? []) ratings.set(u, { ...rating(u), favorite: true });
      if (ratings.size > 0) {
        await tx
          .insert(playlistRatings)
          .values([...ratings].map(([u, r]) => ({ userId: userId(u), playlistId: row.id, ...r })));
      }
      return row.id;
    };
    for (const p of DEMO_PLAYLISTS) await insertPlaylist(p);
    for (const [index, plan] of DEMO_PLANS.entries()) {
      const [row] = await tx
        .insert(series)
        .values({
          name: plan.name,
          description: plan.description,
          creatorId: ownerId,
          dateCreated: daysAgo(30 - index),
        })
        .returning({ id: series.id });
      for (const [day, p] of plan.days.entries()) {
        await tx
          .insert(seriesPlaylists)
          .values({ seriesId: row.id, position: day + 1, playlistId: await insertPlaylist(p) });
      }
    }
    const userTriggerRows = DEMO_USER_TRIGGERS.flatMap((t) => {
      const tid = triggerId.get(t.trigger);
      const uid = userIds.get(t.username);
      return tid && uid ? [{ userId: uid, triggerId: tid, trainingAmount: t.trainingAmount }] : [];
    });
    if (userTriggerRows.length > 0)
      await tx.insert(userTriggers).values(userTriggerRows).onConflictDoNothing();
  });
  log.info({ files: DEMO_FILES.length, ms: Date.now() - started }, 'demo library seeded');
}
