import { describe, expect, it } from 'vitest';
import { type PagePreloads, pagePreloadFor } from './page-preloads.ts';

const home = { scripts: ['/assets/HomePage-1.js'], styles: ['/assets/HomePage-1.css'] };
const playlist = { scripts: ['/assets/PlaylistPage-2.js'], styles: [] };
const generate = { scripts: ['/assets/GeneratePage-3.js'], styles: [] };
const preloads: PagePreloads = { '/': home, '/playlist/:uuid': playlist, '/playlist/generate': generate };

describe('pagePreloadFor', () => {
  it('finds the page of a fixed address and of one with a parameter, a fixed segment winning over a parameter', () => {
    expect(pagePreloadFor(preloads, '/')).toBe(home);
    expect(pagePreloadFor(preloads, '/playlist/b37ea69e')).toBe(playlist);
    expect(pagePreloadFor(preloads, '/playlist/generate')).toBe(generate);
  });

  it('finds nothing for an address of no page: more or fewer segments, or an empty parameter', () => {
    expect(pagePreloadFor(preloads, '/playlist')).toBeUndefined();
    expect(pagePreloadFor(preloads, '/playlist/')).toBeUndefined();
    expect(pagePreloadFor(preloads, '/playlist/a/b')).toBeUndefined();
    expect(pagePreloadFor(preloads, '/nowhere')).toBeUndefined();
  });
});
