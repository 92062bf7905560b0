import { describe, expect, it } from 'vitest';
import { matchesPath, queryString, type RouteAddress, routePath } from './address.ts';
import { playlistsRoutes } from './playlists.ts';

const part: RouteAddress = { name: 'things.part', method: 'GET', path: '/things/:id/parts/:name' };

describe('routePath', () => {
  it('is the declared path, with each :name filled in and encoded', () => {
    expect(routePath(playlistsRoutes.userInfo)).toBe('/playlist/user');
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
    expect(matchesPath(playlistsRoutes.list, '/playlists')).toBe(true);
    expect(matchesPath(playlistsRoutes.list, '/playlists/recent')).toBe(false);
    expect(matchesPath(playlistsRoutes.delete, '/playlists')).toBe(false);
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
