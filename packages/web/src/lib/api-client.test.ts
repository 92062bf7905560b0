import { defineRoute } from '@mesmer/shared/api/contract';
import { playlistsApi } from '@mesmer/shared/api/playlists';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
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

describe('call(route, …)', () => {
  it("sends the route's method and path under /api with the query as the server reads it", async () => {
    const fetch = fakeFetch(200, { playlists: [], totalItems: 0 });
    const answer = await call(playlistsApi.list, {
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
    expect(await call(playlistsApi.delete, { query: { id: 7 } })).toBeNull();
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
    await call(playlistsApi.rate, { body: { id: 7, isLiked: true } });
    const [url, init] = vi.mocked(globalThis.fetch).mock.calls[0];
    expect(url).toBe('/api/playlist/user');
    expect(init).toMatchObject({
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: '{"id":7,"isLiked":true}',
    });
  });

  it('fills in path parameters', async () => {
    const route = defineRoute({
      method: 'GET',
      path: '/things/:id/parts/:name',
      tags: [],
      params: z.object({ id: z.number(), name: z.string() }),
      responses: { 200: z.object({}) },
    });
    const fetch = fakeFetch(200, {});
    await call(route, { params: { id: 5, name: 'a b/c' } });
    expect(fetch.mock.calls[0][0]).toBe('/api/things/5/parts/a%20b%2Fc');
  });

  it("throws the server's error with its status and field", async () => {
    fakeFetch(400, { error: 'name: Name is required.', field: 'name' });
    const failure = call(playlistsApi.create, { body: { name: '', expLevel: 1 } });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({
      status: 400,
      message: 'name: Name is required.',
      field: 'name',
    });
  });
});
