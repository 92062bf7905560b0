import type { Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { pagePreloads } from './page-preloads.ts';

interface ChunkFields {
  isEntry?: boolean;
  /** The page module the chunk is the facade of, if any. */
  facadeModuleId?: string;
  /** Modules the chunk holds beside its facade. */
  modules?: string[];
  viteMetadata?: { importedCss: Set<string>; importedAssets: Set<string> };
}

/** An output chunk with what pagePreloads reads. */
function chunk(fileName: string, imports: string[], fields: ChunkFields = {}) {
  const { facadeModuleId = null, modules = [], isEntry = false, viteMetadata } = fields;
  const moduleIds = [...(facadeModuleId ? [facadeModuleId] : []), ...modules];
  return [
    fileName,
    { type: 'chunk', fileName, imports, isEntry, facadeModuleId, moduleIds, viteMetadata },
  ] as const;
}

const css = (...files: string[]) => ({
  viteMetadata: { importedCss: new Set(files), importedAssets: new Set<string>() },
});

const bundle = Object.fromEntries([
  chunk('assets/index-1.js', ['assets/ui-1.js'], { isEntry: true, facadeModuleId: '/w/src/main.tsx' }),
  chunk('assets/ui-1.js', []),
  chunk('assets/HomePage-1.js', ['assets/ui-1.js', 'assets/list-1.js'], {
    facadeModuleId: '/w/src/features/home/HomePage.tsx',
    ...css('assets/HomePage-1.css'),
  }),
  chunk('assets/list-1.js', ['assets/icon-1.js'], css('assets/list-1.css')),
  chunk('assets/icon-1.js', ['assets/list-1.js']),
  chunk('assets/FilesPage-1.js', ['assets/list-1.js'], {
    facadeModuleId: '/w/src/features/files/FilesPage.tsx',
  }),
  // A page another page also imports: a chunk of its own without it as the facade.
  chunk('assets/OAuthPage-1.js', ['assets/ui-1.js'], { modules: ['/w/src/features/patreon/OAuthPage.tsx'] }),
  ['assets/index-1.css', { type: 'asset', fileName: 'assets/index-1.css' }],
]) as unknown as Rollup.OutputBundle;

describe('pagePreloads', () => {
  it("lists each page's chunk, what it imports however deep, and their styles, leaving out the entry's", () => {
    const routes = [
      { path: '/', module: 'features/home/HomePage.tsx' },
      { path: '/files', module: 'features/files/FilesPage.tsx' },
      { path: '/oauth', module: 'features/patreon/OAuthPage.tsx' },
    ];
    expect(pagePreloads(bundle, routes)).toEqual({
      '/': {
        scripts: ['/assets/HomePage-1.js', '/assets/list-1.js', '/assets/icon-1.js'],
        styles: ['/assets/HomePage-1.css', '/assets/list-1.css'],
      },
      '/files': {
        scripts: ['/assets/FilesPage-1.js', '/assets/list-1.js', '/assets/icon-1.js'],
        styles: ['/assets/list-1.css'],
      },
      '/oauth': { scripts: ['/assets/OAuthPage-1.js'], styles: [] },
    });
  });

  it('stops the build when a route names a module with no chunk', () => {
    expect(() => pagePreloads(bundle, [{ path: '/x', module: 'features/x/XPage.tsx' }])).toThrow(
      'No chunk for the page module features/x/XPage.tsx of /x',
    );
  });
});
