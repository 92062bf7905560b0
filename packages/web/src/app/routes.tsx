import { type ComponentType, lazy } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { Layout } from './Layout.tsx';
import { pageRoutes } from './page-routes.ts';
import { RouteError } from './RouteError.tsx';

type PageModule = { default: ComponentType };

/** Each page module, loaded when its route is first shown (a chunk of its own). */
const pageModules = import.meta.glob<PageModule>([
  '../features/*/*Page.tsx',
  '../features/files/DownloadRedirect.tsx',
]);

function pageElement(module: string) {
  const load = pageModules[`../${module}`];
  if (!load) throw new Error(`page-routes.ts names ${module}, which is not a page module`);
  const Component = lazy(load);
  return <Component />;
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
