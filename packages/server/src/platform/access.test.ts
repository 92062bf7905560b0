import type { RoleName } from '@mesmer/shared/domain/permissions';
import { canAddTrigger, canPublishTrigger } from '@mesmer/shared/domain/permissions';
import { describe, expect, it } from 'vitest';
import { createUser, loginAs, type TestUser } from '../test/factories.ts';
import { createTestApp } from '../test/harness.ts';
import {
  createFile,
  createPlaylist,
  createTier,
  grantMembership,
  setHideLockedFiles,
} from '../test/library-factories.ts';
import { ANONYMOUS, requirePermission, requireUser, type SessionUser } from './access.ts';
import { Forbidden, Unauthorized } from './errors.ts';

const { app } = await createTestApp();
const db = app.ctx.db;
const { access, sessions } = app.services;

const session = (user: TestUser, roles: RoleName[] = []): SessionUser => ({
  id: user.id,
  username: user.username,
  timezone: 'UTC',
  roles,
});

await createUser(db); // the site owner (id 1), so nobody below is special
const alice = await createUser(db); // owns the private file and playlist, authors the locked file
const bob = await createUser(db);
const member = await createUser(db);
const lowMember = await createUser(db);
const lapsed = await createUser(db);
const moderator = await createUser(db, { roles: ['Moderator'] });

const silver = await createTier(db, { creatorName: 'Alice Studio', rank: 2, creatorUserId: alice.id });
const bronze = await createTier(db, { creatorName: 'Alice Studio', rank: 1, creatorUserId: alice.id });
const gold = await createTier(db, { creatorName: 'Alice Studio', rank: 3, creatorUserId: alice.id });
await grantMembership(db, member.id, gold.id);
await grantMembership(db, lowMember.id, bronze.id);
await grantMembership(db, lapsed.id, gold.id, false);

const publicFile = await createFile(db, { name: 'Public', authorId: alice.id });
const privateFile = await createFile(db, { name: 'Private', authorId: alice.id, isPublic: false });
const lockedFile = await createFile(db, { name: 'Locked', authorId: alice.id, tierIds: [silver.id] });
const uploadedForAlice = await createFile(db, {
  name: 'Uploaded by Bob',
  authorId: alice.id,
  uploaderId: bob.id,
  isPublic: false,
});
const missingId = uploadedForAlice.id + 1000;
const allFileIds = [publicFile.id, privateFile.id, lockedFile.id, uploadedForAlice.id, missingId];

const publicPlaylist = await createPlaylist(db, { creatorId: alice.id });
const privatePlaylist = await createPlaylist(db, { creatorId: alice.id, isPublic: false });

const viewers = {
  anonymous: null,
  owner: session(alice),
  other: session(bob),
  member: session(member),
  lowerMember: session(lowMember),
  lapsedMember: session(lapsed),
  readsAll: session(moderator, ['Moderator']),
};

async function allowed(check: 'visible' | 'playable', who: keyof typeof viewers): Promise<number[]> {
  const ids = await access.files[check](await access.viewer(viewers[who]), allFileIds);
  return [...ids].sort((a, b) => a - b);
}

describe('access to files', () => {
  it('answers the visible ids of a batch: public files for everyone, private ones for their author or uploader and READ_ALL_FILES', async () => {
    expect(await allowed('visible', 'anonymous')).toEqual([publicFile.id, lockedFile.id]);
    expect(await allowed('visible', 'owner')).toEqual([
      publicFile.id,
      privateFile.id,
      lockedFile.id,
      uploadedForAlice.id,
    ]);
    expect(await allowed('visible', 'other')).toEqual([publicFile.id, lockedFile.id, uploadedForAlice.id]);
    expect(await allowed('visible', 'member')).toEqual([publicFile.id, lockedFile.id]);
    expect(await allowed('visible', 'readsAll')).toEqual([
      publicFile.id,
      privateFile.id,
      lockedFile.id,
      uploadedForAlice.id,
    ]);
  });

  it('answers the playable ids: a locked file only for its author, members at its tier or above, and READ_ALL_FILES', async () => {
    expect(await allowed('playable', 'anonymous')).toEqual([publicFile.id]);
    expect(await allowed('playable', 'owner')).toEqual([
      publicFile.id,
      privateFile.id,
      lockedFile.id,
      uploadedForAlice.id,
    ]);
    expect(await allowed('playable', 'other')).toEqual([publicFile.id, uploadedForAlice.id]);
    expect(await allowed('playable', 'member')).toEqual([publicFile.id, lockedFile.id]);
    expect(await allowed('playable', 'lowerMember')).toEqual([publicFile.id]);
    expect(await allowed('playable', 'lapsedMember')).toEqual([publicFile.id]);
    expect(await allowed('playable', 'readsAll')).toEqual([
      publicFile.id,
      privateFile.id,
      lockedFile.id,
      uploadedForAlice.id,
    ]);
  });

  it('answers an empty set for an empty batch and leaves out ids that do not exist', async () => {
    expect(await access.files.visible(ANONYMOUS, [])).toEqual(new Set());
    expect(await access.files.visible(ANONYMOUS, [missingId])).toEqual(new Set());
    expect(await access.files.playable(await access.viewer(viewers.readsAll), [missingId])).toEqual(
      new Set(),
    );
  });
});

describe('access to playlists', () => {
  it('answers the visible ids of a batch: public for everyone, private for the creator and READ_ALL_FILES', async () => {
    const ids = [publicPlaylist.id, privatePlaylist.id];
    const visibleTo = async (who: keyof typeof viewers) =>
      [...(await access.playlists.visible(await access.viewer(viewers[who]), ids))].sort((a, b) => a - b);
    expect(await visibleTo('anonymous')).toEqual([publicPlaylist.id]);
    expect(await visibleTo('owner')).toEqual([publicPlaylist.id, privatePlaylist.id]);
    expect(await visibleTo('other')).toEqual([publicPlaylist.id]);
    expect(await visibleTo('readsAll')).toEqual([publicPlaylist.id, privatePlaylist.id]);
  });
});

describe('the viewer', () => {
  it('is anonymous without a user, and otherwise carries READ_ALL_FILES, the tiers unlocked and the hide-locked setting', async () => {
    expect(await access.viewer(null)).toEqual(ANONYMOUS);
    await setHideLockedFiles(db, member.id, true);
    expect(await access.viewer(viewers.member)).toEqual({
      id: member.id,
      readsAllFiles: false,
      entitledTierIds: new Set([gold.id, silver.id, bronze.id]),
      hideLockedFiles: true,
    });
    expect(await access.viewer(viewers.lapsedMember)).toEqual({
      id: lapsed.id,
      readsAllFiles: false,
      entitledTierIds: new Set(),
      hideLockedFiles: false,
    });
    expect((await access.viewer(viewers.readsAll)).readsAllFiles).toBe(true);
  });

  it('comes from a live session token, with its roles; an unknown token has no user', async () => {
    const token = await loginAs(app, moderator.username, moderator.password);
    expect(await sessions.sessionUser(token, app.ctx.clock.now(), 14)).toEqual({
      id: moderator.id,
      username: moderator.username,
      timezone: 'UTC',
      roles: ['Moderator'],
    });
    expect(await sessions.sessionUser(`${token}x`, app.ctx.clock.now(), 14)).toBeNull();
  });
});

describe('the viewer of a session', () => {
  it('comes with the session lookup, equal to the viewer read on its own', async () => {
    for (const who of [member, lapsed, moderator, bob]) {
      const token = await loginAs(app, who.username, who.password);
      const sessionUser = await sessions.sessionUser(token, app.ctx.clock.now(), 14);
      if (!sessionUser) throw new Error('no session');
      // A copy of the same user is not the session's object: its viewer is read on its own.
      expect(await access.viewer(sessionUser)).toEqual(await access.viewer({ ...sessionUser }));
    }
    const token = await loginAs(app, member.username, member.password);
    const sessionUser = await sessions.sessionUser(token, app.ctx.clock.now(), 14);
    if (!sessionUser) throw new Error('no session');
    expect((await access.viewer(sessionUser)).entitledTierIds.size).toBeGreaterThan(0);
  });
});

describe('the viewer of library lists', () => {
  const listViewerId = async (who: keyof typeof viewers, list: 'files' | 'playlists', personal = false) =>
    (await access.listViewer(viewers[who], { list, personal })).id;

  it('is the shared audience (no id) for users who see lists as anonymous visitors with their tiers do', async () => {
    expect(await access.listViewer(null, { list: 'files', personal: false })).toEqual(ANONYMOUS);
    expect(await listViewerId('member', 'files')).toBeNull();
    expect(await listViewerId('member', 'playlists')).toBeNull();
    const memberViewer = await access.listViewer(viewers.member, { list: 'files', personal: false });
    expect(memberViewer.entitledTierIds).toEqual((await access.viewer(viewers.member)).entitledTierIds);
  });

  it('keeps the user for their personal lists, readers of all files, owners of files and owners of hidden playlists', async () => {
    expect(await listViewerId('member', 'playlists', true)).toBe(member.id);
    expect(await listViewerId('readsAll', 'files')).toBe(moderator.id);
    // Alice authors files; Bob uploaded one.
    expect(await listViewerId('owner', 'files')).toBe(alice.id);
    expect(await listViewerId('other', 'files')).toBe(bob.id);
    // A hidden playlist changes playlist lists only.
    const planner = await createUser(db);
    await createPlaylist(db, { creatorId: planner.id, isPublic: true });
    expect(await listViewerId('member', 'playlists')).toBeNull();
    const plannerSession = session(planner);
    expect((await access.listViewer(plannerSession, { list: 'playlists', personal: false })).id).toBeNull();
    await createPlaylist(db, { creatorId: planner.id, isPublic: false });
    expect((await access.listViewer(plannerSession, { list: 'playlists', personal: false })).id).toBe(
      planner.id,
    );
    expect((await access.listViewer(plannerSession, { list: 'files', personal: false })).id).toBeNull();
  });
});

describe('permissions', () => {
  it('requireUser answers 401 for anonymous callers; requirePermission 403 when the shared rule says no', () => {
    expect(() => requireUser(null)).toThrow(Unauthorized);
    expect(requireUser(viewers.other)).toBe(viewers.other);
    expect(() => requirePermission(null, canAddTrigger)).toThrow(Unauthorized);
    expect(() => requirePermission(viewers.other, canAddTrigger)).toThrow(Forbidden);
    expect(requirePermission(viewers.readsAll, canPublishTrigger)).toBe(viewers.readsAll);
  });

  it('the triggers service checks the trigger permissions itself, whoever calls it', async () => {
    const { triggers } = app.services;
    const noRole = viewers.other;
    await expect(triggers.create(noRole, { name: 'Unchecked', description: '' })).rejects.toThrow(Forbidden);
    await expect(triggers.requests(noRole)).rejects.toThrow(Forbidden);
    expect(await triggers.list()).toEqual([]);
  });
});
