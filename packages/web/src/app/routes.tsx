import type { FetchQueryOptions, QueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy } from 'react';
import { matchRoutes, Navigate, type Params, type RouteObject } from 'react-router';
import { Layout } from './Layout.tsx';
import { pageRoutes } from './page-routes.ts';
import { RouteError } from './RouteError.tsx';

interface PageModule {
  default: ComponentType;
  /** The queries of what the page shows first, started with the page before the first render. */
  firstQueries?: (params: Params) => readonly FetchQueryOptions[];
}

/** Each page module, loaded when its route is first shown (a chunk of its own). */
const pageModules = import.meta.glob<PageModule>([
  '../features/*/*Page.tsx',
  '../features/files/DownloadRedirect.tsx',
]);

/** Page components loaded before the first render (loadPageAt), shown without suspending. */
const loadedPages = new Map<string, ComponentType>();

function RoutePage({ module, lazyPage: LazyPage }: { module: string; lazyPage: ComponentType }) {
  const Loaded = loadedPages.get(module);
  return Loaded ? <Loaded /> : <LazyPage />;
}

function pageElement(module: string) {
  const load = pageModules[`../${module}`];
  if (!load) throw new Error(`page-routes.ts names ${module}, which is not a page module`);
  return <RoutePage module={module} lazyPage={lazy(load)} />;
}

/**
 * Loads the page module of `pathname`, then what the page shows first (its `firstQueries`). The server
 * names the page's files in the HTML, so they are on their way already: awaited before the first render,
 * the page shows at once instead of after a loading state. A failure is left to the page, which loads the
 * module or the data again and shows its error.
 */
export async function loadPageAt(pathname: string, queryClient: QueryClient): Promise<void> {
  const [match] = matchRoutes([...pageRoutes], pathname) ?? [];
  const module = match?.route.module;
  const load = module && pageModules[`../${module}`];
  if (!match || !load) return;
  try {
    const page = await load();
    loadedPages.set(module, page.default);
    await Promise.all(page.firstQueries?.(match.params).map((q) => queryClient.prefetchQuery(q)) ?? []);
  } catch {
    // Shown by the page.
  }
}

/** The screens of page-routes.ts inside the layout; any other address goes to /404. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      ...pageRoutes.map(({ path, module }) => ({ path, element: pageElement(module) })),
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];
