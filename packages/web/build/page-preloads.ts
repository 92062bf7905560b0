import type { Plugin, Rollup } from 'vite';
// By path: Vite's config loader leaves a package import to Node, which cannot load the shared package's TypeScript.
import { PAGE_PRELOADS_FILE, type PagePreloads } from '../../shared/src/domain/page-preloads.ts';

type Chunk = Rollup.OutputChunk;

/** `chunk` and every chunk it imports statically, however deep. */
function staticClosure(chunk: Chunk, byName: Map<string, Chunk>, seen = new Set<Chunk>()): Set<Chunk> {
  if (seen.has(chunk)) return seen;
  seen.add(chunk);
  for (const name of chunk.imports) {
    const imported = byName.get(name);
    if (imported) staticClosure(imported, byName, seen);
  }
  return seen;
}

/**
 * Each route's page files beyond the entry's (which index.html already names): the page module's
 * chunk, the chunks it imports, and their styles.
 */
export function pagePreloads(
  bundle: Rollup.OutputBundle,
  routes: readonly { path: string; module: string }[],
  base = '/',
): PagePreloads {
  const chunks = Object.values(bundle).filter((o): o is Chunk => o.type === 'chunk');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const entry = chunks.find((c) => c.isEntry);
  if (!entry) throw new Error('The build has no entry chunk');
  const withEntry = staticClosure(entry, byName);
  const preloads: PagePreloads = {};
  for (const { path, module } of routes) {
    const isPage = (id: string | null) => id?.endsWith(`/src/${module}`) ?? false;
    // A page another page imports too is a chunk of its own, but not one with it as its facade.
    const page = chunks.find((c) => isPage(c.facadeModuleId)) ?? chunks.find((c) => c.moduleIds.some(isPage));
    if (!page) throw new Error(`No chunk for the page module ${module} of ${path}`);
    const own = [...staticClosure(page, byName)].filter((c) => !withEntry.has(c));
    preloads[path] = {
      scripts: own.map((c) => base + c.fileName),
      styles: [...new Set(own.flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])]))].map((f) => base + f),
    };
  }
  return preloads;
}

/** Writes PAGE_PRELOADS_FILE (shared/domain/page-preloads.ts) beside index.html. */
export function pagePreloadsFile(routes: readonly { path: string; module: string }[]): Plugin {
  let base = '/';
  return {
    name: 'mesmer-page-preloads',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    generateBundle(_options, bundle) {
      this.emitFile({
        type: 'asset',
        fileName: PAGE_PRELOADS_FILE,
        source: JSON.stringify(pagePreloads(bundle, routes, base)),
      });
    },
  };
}
