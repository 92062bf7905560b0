import { describe, expect, it } from 'vitest';
import { type PagePreloads, pageAt } from './page-preloads.ts';

const home = { scripts: ['/assets/HomePage-1.js'], styles: ['/assets/HomePage-1.css'] };
const playlist = { scripts: ['/assets/PlaylistPage-2.js'], styles: [] };
const generate = { scripts: ['/assets/GeneratePage-3.js'], styles: [] };
const preloads: PagePreloads = { '/': home, '/playlist/:uuid': playlist, '/playlist/generate': generate };

describe('pageAt', () => {
  it('finds the page of a fixed address and of one with a parameter, a fixed segment winning over a parameter', () => {
    expect(pageAt(preloads, '/')).toEqual({ pattern: '/', page: home, params: {} });
    expect(pageAt(preloads, '/playlist/b37ea69e')).toEqual({
      pattern: '/playlist/:uuid',
      page: playlist,
      params: { uuid: 'b37ea69e' },
    });
    expect(pageAt(preloads, '/playlist/generate')).toEqual({
      pattern: '/playlist/generate',
      page: generate,
      params: {},
    });
  });

  it('reads a parameter decoded, as the router does, and keeps one that is not valid percent-encoding', () => {
    expect(pageAt(preloads, '/playlist/a%20b')?.params).toEqual({ uuid: 'a b' });
    expect(pageAt(preloads, '/playlist/100%')?.params).toEqual({ uuid: '100%' });
  });

  it('finds nothing for an address of no page: more or fewer segments, or an empty parameter', () => {
    expect(pageAt(preloads, '/playlist')).toBeUndefined();
    expect(pageAt(preloads, '/playlist/')).toBeUndefined();
    expect(pageAt(preloads, '/playlist/a/b')).toBeUndefined();
    expect(pageAt(preloads, '/nowhere')).toBeUndefined();
  });
});
