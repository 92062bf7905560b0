import { listPlaylistsResponse, playlistUserInfo } from '@mesmer/shared/api/playlists';
import { SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import { canLikePlaylist, likeRatio } from '@mesmer/shared/domain/rating';
import { beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createSignedInUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createPlaylist } from '../../test/library-factories.ts';

/**
 * The web shows Like/Dislike by the shared rule; the server decides by the same rule.
 * Both are run here on one matrix of viewers and playlists, so they cannot drift apart.
 */
const { app } = await createTestApp();
const db = app.ctx.db;

type Signed = TestUser & { token: string };
let owner: Signed;
let alice: Signed;
let bob: Signed;
let carol: Signed;
const playlists: Record<string, { id: number; uuid: string }> = {};

beforeAll(async () => {
  owner = await createSignedInUser(app, { username: 'owner', roles: ['Administrator'] });
  alice = await createSignedInUser(app, { username: 'alice', roles: ['Verified Creator'] });
  bob = await createSignedInUser(app, { username: 'bob' });
  carol = await createSignedInUser(app, { username: 'carol' });
  expect(owner.id).toBe(SITE_OWNER_ID);
  playlists.alicePublic = await createPlaylist(db, { name: 'Alice public', creatorId: alice.id });
  playlists.alicePrivate = await createPlaylist(db, {
    name: 'Alice private',
    creatorId: alice.id,
    isPublic: false,
  });
  playlists.bobPublic = await createPlaylist(db, { name: 'Bob public', creatorId: bob.id });
  playlists.official = await createPlaylist(db, { name: 'Official', creatorId: owner.id });
  playlists.core = await createPlaylist(db, { name: 'Core', creatorId: owner.id, isCore: true });
});

async function seen(id: number, token: string) {
  const res = await app.inject({
    method: 'GET',
    url: `/api/playlists?ids=${id}`,
    headers: authHeader(token),
  });
  const [playlist] = listPlaylistsResponse.parse(res.json()).playlists;
  return playlist;
}

describe('rating rules: shared and server agree', () => {
  const viewers = () => ({ owner, alice, bob });

  it('canLikePlaylist is true exactly where PUT /api/playlist/user with isLiked answers 200', async () => {
    const cases: string[] = [];
    for (const [viewerName, viewer] of Object.entries(viewers())) {
      for (const [name, { id }] of Object.entries(playlists)) {
        const playlist = await seen(id, viewer.token);
        if (!playlist) continue; // not visible to this viewer: the server answers 404 before any rule
        const res = await app.inject({
          method: 'PUT',
          url: '/api/playlist/user',
          payload: { id, isLiked: true },
          headers: authHeader(viewer.token),
        });
        const shared = canLikePlaylist(playlist, viewer.id);
        expect([200, 403], `${viewerName} rates ${name}`).toContain(res.statusCode);
        expect(res.statusCode === 200, `${viewerName} rates ${name}`).toBe(shared);
        cases.push(`${viewerName}/${name}:${shared}`);
      }
    }
    // The matrix covers both answers, including the own-playlist refusal.
    expect(cases).toEqual(
      expect.arrayContaining([
        'bob/alicePublic:true',
        'alice/alicePublic:false',
        'bob/bobPublic:false',
        'alice/bobPublic:true',
        'bob/official:false',
        'bob/core:false',
        'alice/alicePrivate:false',
      ]),
    );
  });

  it('signed-out viewers may not rate by either rule', async () => {
    const res = await app.inject({
      method: 'PUT',
      url: '/api/playlist/user',
      payload: { id: playlists.bobPublic.id, isLiked: true },
    });
    expect(res.statusCode).toBe(401);
    const playlist = await seen(playlists.bobPublic.id, bob.token);
    expect(canLikePlaylist(playlist, null)).toBe(false);
  });

  it("the server's likeRatio is the shared likeRatio of its counts", async () => {
    const target = await createPlaylist(db, { name: 'Ratio', creatorId: alice.id });
    const put = async (token: string, payload: object) => {
      const res = await app.inject({
        method: 'PUT',
        url: '/api/playlist/user',
        payload: { id: target.id, ...payload },
        headers: authHeader(token),
      });
      expect(res.statusCode).toBe(200);
      return playlistUserInfo.parse(res.json());
    };
    const answers = [
      await put(bob.token, { isLiked: true }),
      await put(owner.token, { isDisliked: true }),
      await put(carol.token, { isLiked: true }),
      await put(bob.token, { isLiked: false }),
      await put(bob.token, { isDisliked: true }),
      await put(owner.token, { isDisliked: false }),
    ];
    expect(answers.map((a) => [a.likes, a.dislikes])).toEqual([
      [1, 0],
      [1, 1],
      [2, 1],
      [1, 1],
      [1, 2],
      [1, 1],
    ]);
    for (const a of answers) expect(a.likeRatio).toBe(likeRatio(a.likes, a.dislikes));
  });
});
