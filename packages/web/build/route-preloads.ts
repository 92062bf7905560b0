import fs from 'node:fs';
import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';
// By path: the Vite config is bundled with its imports, and a package import would stay an external .ts.
import { ROUTE_PRELOADS_FILE } from '../../shared/src/domain/site.ts';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

interface RoutePreload {
  /** A React Router path: static segments and `:params`. */
  path: string;
  js: string[];
  css: string[];
}

/**
 * The pages of `src/app/routes.tsx`, each `{ path: '…', element: page(() => import('…')) }`, as
 * [path, module] pairs: the route table stays the one place that names them.
 */
export function routeModules(routesSource: string): [path: string, module: string][] {
  const pattern = /path:\s*'([^']+)',\s*element:\s*page\(\s*\(\)\s*=>\s*import\('([^']+)'\)\s*\)/g;
  return [...routesSource.matchAll(pattern)].map((m) => [m[1], m[2]]);
}

function isChunk(item: OutputBundle[string] | undefined): item is OutputChunk {
  return item?.type === 'chunk';
}

/**
 * Writes route-preloads.json: for each page, the scripts and styles its lazy chunk loads that the entry
 * does not already load. The server adds them to the page as modulepreload and stylesheet links, so a
 * page's code downloads beside the entry instead of after it ran (issue 17, first load).
 */
export function routePreloads(): Plugin {
  let root = '.';
  return {
    name: 'mesmer-route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const routesFile = path.join(root, 'src/app/routes.tsx');
      const chunks = Object.values(bundle).filter(isChunk);
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) return;
      const closure = (start: OutputChunk, into: Set<string>) => {
        if (into.has(start.fileName)) return;
        into.add(start.fileName);
        for (const name of start.imports) {
          const next = bundle[name];
          if (isChunk(next)) closure(next, into);
        }
      };
      const entryFiles = new Set<string>();
      closure(entry, entryFiles);
      const cssOf = (files: Iterable<string>) =>
        [...files].flatMap((f) => {
          const chunk = bundle[f];
          return isChunk(chunk) ? [...(chunk.viteMetadata?.importedCss ?? [])] : [];
        });
      const entryCss = new Set(cssOf(entryFiles));

      const routes: RoutePreload[] = routeModules(fs.readFileSync(routesFile, 'utf8')).map(
        ([routePath, module]) => {
          const moduleId = path.resolve(path.dirname(routesFile), module);
          const page =
            chunks.find((c) => c.facadeModuleId === moduleId) ??
            chunks.find((c) => c.moduleIds.includes(moduleId));
          if (!page) throw new Error(`route-preloads: no chunk for ${module} (${routePath})`);
          const files = new Set<string>();
          closure(page, files);
          const js = [...files].filter((f) => !entryFiles.has(f));
          const css = [...new Set(cssOf(js))].filter((f) => !entryCss.has(f));
          return { path: routePath, js: js.map((f) => `/${f}`), css: css.map((f) => `/${f}`) };
        },
      );
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: JSON.stringify({ routes }) });
    },
  };
}
