import { asc, eq, or } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { blocks, friendships } from '../../db/schema/index.ts';
import { authHeader, createSignedInUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';

const { app } = await createTestApp();
const db = app.ctx.db;

function friendsCall(method: 'GET' | 'PUT' | 'DELETE', token?: string, friendId?: unknown) {
  return app.inject({
    method,
    url: method === 'DELETE' ? `/api/user/friends?friendId=${friendId}` : '/api/user/friends',
    payload: method === 'PUT' ? { friendId } : undefined,
    headers: token ? authHeader(token) : {},
  });
}
async function rowsOf(userId: number) {
  const rows = await db
    .select()
    .from(friendships)
    .where(or(eq(friendships.userId, userId), eq(friendships.friendId, userId)))
    .orderBy(asc(friendships.userId));
  return rows.map((r) => ({ userId: r.userId, friendId: r.friendId, accepted: r.acceptedAt !== null }));
}
const entry = (u: { id: number; username: string }) => ({ id: u.id, username: u.username, imageURL: null });

describe('/api/user/friends', () => {
  it('requests, accepts from the other side and lists both sides', async () => {
    const ann = await createSignedInUser(app);
    const bob = await createSignedInUser(app);

    const asked = await friendsCall('PUT', ann.token, bob.id);
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({ friends: [], incoming: [], outgoing: [entry(bob)] });
    expect(await rowsOf(ann.id)).toEqual([{ userId: ann.id, friendId: bob.id, accepted: false }]);
    expect((await friendsCall('GET', bob.token)).json()).toEqual({
      friends: [],
      incoming: [entry(ann)],
      outgoing: [],
    });

    // Asking twice changes nothing.
    expect((await friendsCall('PUT', ann.token, bob.id)).json().outgoing).toEqual([entry(bob)]);
    expect(await rowsOf(ann.id)).toHaveLength(1);

    const accepted = await friendsCall('PUT', bob.token, ann.id);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ friends: [entry(ann)], incoming: [], outgoing: [] });
    expect(await rowsOf(ann.id)).toEqual([{ userId: ann.id, friendId: bob.id, accepted: true }]);
    expect((await friendsCall('GET', ann.token)).json()).toEqual({
      friends: [entry(bob)],
      incoming: [],
      outgoing: [],
    });
  });

  it('DELETE cancels, declines and unfriends, from either side', async () => {
    const ann = await createSignedInUser(app);
    const bob = await createSignedInUser(app);
    await friendsCall('PUT', ann.token, bob.id);
    const cancelled = await friendsCall('DELETE', ann.token, bob.id);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toEqual({ friends: [], incoming: [], outgoing: [] });
    expect(await rowsOf(ann.id)).toEqual([]);

    await friendsCall('PUT', ann.token, bob.id);
    expect((await friendsCall('DELETE', bob.token, ann.id)).json()).toEqual({
      friends: [],
      incoming: [],
      outgoing: [],
    });
    expect(await rowsOf(ann.id)).toEqual([]);

    await friendsCall('PUT', ann.token, bob.id);
    await friendsCall('PUT', bob.token, ann.id);
    expect((await friendsCall('DELETE', bob.token, ann.id)).statusCode).toBe(200);
    expect(await rowsOf(ann.id)).toEqual([]);
    // Nothing to remove changes nothing.
    expect((await friendsCall('DELETE', bob.token, ann.id)).statusCode).toBe(200);
  });

  it('400 for yourself or a bad id, naming friendId; 404 for an unknown user', async () => {
    const ann = await createSignedInUser(app);
    const self = await friendsCall('PUT', ann.token, ann.id);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toMatchObject({ field: 'friendId' });
    const bad = await friendsCall('PUT', ann.token, 'x');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'friendId' });
    const badDelete = await friendsCall('DELETE', ann.token, 'x');
    expect(badDelete.statusCode).toBe(400);
    expect(badDelete.json()).toMatchObject({ field: 'friendId' });
    const unknown = await friendsCall('PUT', ann.token, 99_999_999);
    expect(unknown.statusCode).toBe(404);
    expect(await rowsOf(ann.id)).toEqual([]);
  });

  it('403 when the other user blocked you; nothing stored', async () => {
    const ann = await createSignedInUser(app);
    const bob = await createSignedInUser(app);
    await db.insert(blocks).values({ blockerId: bob.id, blockedId: ann.id });
    const res = await friendsCall('PUT', ann.token, bob.id);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'You cannot add this user.' });
    expect(await rowsOf(ann.id)).toEqual([]);
  });

  it('leaves a request sent before the block out of the blocker’s list while the block holds', async () => {
    const ann = await createSignedInUser(app);
    const bob = await createSignedInUser(app);
    expect((await friendsCall('PUT', ann.token, bob.id)).statusCode).toBe(200);
    await db.insert(blocks).values({ blockerId: bob.id, blockedId: ann.id });
    expect((await friendsCall('GET', bob.token)).json()).toEqual({ friends: [], incoming: [], outgoing: [] });
    // The sender still sees it as sent: they learn nothing of the block from it.
    expect((await friendsCall('GET', ann.token)).json()).toEqual({
      friends: [],
      incoming: [],
      outgoing: [entry(bob)],
    });
    await db.delete(blocks).where(eq(blocks.blockerId, bob.id));
    expect((await friendsCall('GET', bob.token)).json().incoming).toEqual([entry(ann)]);
  });

  it('401 signed out', async () => {
    expect((await friendsCall('GET')).statusCode).toBe(401);
    expect((await friendsCall('PUT', undefined, 1)).statusCode).toBe(401);
    expect((await friendsCall('DELETE', undefined, 1)).statusCode).toBe(401);
  });
});
