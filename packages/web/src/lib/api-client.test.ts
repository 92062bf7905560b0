import type { ListPlaylistsResponse } from '@mesmer/shared/api/playlists';
import { moderationRoutes } from '@mesmer/shared/routes/moderation';
import { playlistsRoutes } from '@mesmer/shared/routes/playlists';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { ApiError, call } from './api-client.ts';

function fakeFetch(status: number, body: unknown) {
  const fetch = vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(status === 204 ? null : JSON.stringify(body), { status }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe('call(address, …)', () => {
  it("sends the route's method and path under /api with the query as the server reads it", async () => {
    const fetch = fakeFetch(200, { playlists: [], totalItems: 0 });
    const answer = await call(playlistsRoutes.list, {
      query: { ids: [3, 4], favorited: true, searchQuery: '' },
    });
    expect(answer).toEqual({ playlists: [], totalItems: 0 });
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/playlists?ids=3%2C4&favorited=true');
    expect(init).toMatchObject({ method: 'GET', body: undefined, credentials: 'same-origin' });
  });

  it('sends the body as JSON and answers null for a 204', async () => {
    const fetch = fakeFetch(204, null);
    expect(await call(playlistsRoutes.delete, { query: { id: 7 } })).toBeNull();
    expect(fetch.mock.calls[0][0]).toBe('/api/playlist?id=7');

    fakeFetch(200, {
      id: 7,
      isLiked: true,
      isDisliked: false,
      isFavorite: false,
      likes: 1,
      dislikes: 0,
      likeRatio: 100,
    });
    await call(playlistsRoutes.rate, { body: { id: 7, isLiked: true } });
    const [url, init] = vi.mocked(globalThis.fetch).mock.calls[0];
    expect(url).toBe('/api/playlist/user');
    expect(init).toMatchObject({
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: '{"id":7,"isLiked":true}',
    });
  });

  it('fills in path parameters', async () => {
    const fetch = fakeFetch(200, {});
    await call(moderationRoutes.act, { params: { id: 5 }, body: { action: 'dismiss' } });
    expect(fetch.mock.calls[0][0]).toBe('/api/moderation/reports/5/actions');
  });

  it("types the input and the answer from the address's route in the contract", () => {
    fakeFetch(200, { playlists: [], totalItems: 0 });
    expectTypeOf(call(playlistsRoutes.list)).resolves.toEqualTypeOf<ListPlaylistsResponse>();
    // @ts-expect-error: the body is the route's, checked at compile time though no schema is loaded
    void call(playlistsRoutes.create, { body: { title: 'x' } }).catch(() => {});
  });

  it("throws the server's error with its status and field", async () => {
    fakeFetch(400, { error: 'name: Name is required.', field: 'name' });
    const failure = call(playlistsRoutes.create, { body: { name: '', expLevel: 1 } });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({
      status: 400,
      message: 'name: Name is required.',
      field: 'name',
    });
  });
});
