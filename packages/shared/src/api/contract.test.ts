import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute, matchesPath, queryString, routePath } from './contract.ts';
import { playlistsApi } from './playlists.ts';

const part = defineRoute({
  method: 'GET',
  path: '/things/:id/parts/:name',
  tags: [],
  params: z.object({ id: z.number(), name: z.string() }),
  responses: { 200: z.object({}) },
});

describe('routePath', () => {
  it('is the declared path, with each :name filled in and encoded', () => {
    expect(routePath(playlistsApi.userInfo)).toBe('/playlist/user');
    expect(routePath(part, { id: 5, name: 'a b/c' })).toBe('/things/5/parts/a%20b%2Fc');
  });

  it('refuses a missing parameter instead of sending ":name"', () => {
    expect(() => routePath(part, { id: 5 })).toThrow(
      'GET /things/:id/parts/:name: missing path parameter name',
    );
  });
});

describe('matchesPath', () => {
  it('matches the whole path, a parameter standing for one segment', () => {
    expect(matchesPath(playlistsApi.list, '/playlists')).toBe(true);
    expect(matchesPath(playlistsApi.list, '/playlists/recent')).toBe(false);
    expect(matchesPath(playlistsApi.delete, '/playlists')).toBe(false);
    expect(matchesPath(part, '/things/5/parts/x')).toBe(true);
    expect(matchesPath(part, '/things/5/parts/x/y')).toBe(false);
    expect(matchesPath(part, '/things//parts/x')).toBe(false);
  });
});

describe('queryString', () => {
  it('encodes values, joins lists with commas and leaves empty values and lists out', () => {
    expect(
      queryString({ uuid: 'a b&c', fileTypes: [1, 2], tags: [], q: '', page: 0, user: undefined, x: null }),
    ).toBe('?uuid=a+b%26c&fileTypes=1%2C2&page=0');
    expect(queryString({})).toBe('');
    expect(queryString()).toBe('');
  });
});
