import { describe, expect, it } from 'vitest';
import { pageRoutes } from './page-routes.ts';
import { routes } from './routes.tsx';

describe('routes', () => {
  it('has a route for each page of page-routes.ts, each found among the page modules, then the 404 fallback', () => {
    expect(routes[0].children?.map((r) => r.path)).toEqual([...pageRoutes.map((p) => p.path), '*']);
  });
});
