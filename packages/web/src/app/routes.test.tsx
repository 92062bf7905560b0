import { pageFirstRequests } from '@mesmer/shared/api/page-first-requests';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageRoutes } from './page-routes.ts';
import { loadPageAt, routes } from './routes.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('routes', () => {
  it('has a route for each page of page-routes.ts, each found among the page modules, then the 404 fallback', () => {
    expect(routes[0].children?.map((r) => r.path)).toEqual([...pageRoutes.map((p) => p.path), '*']);
  });

  it.each(Object.entries(pageFirstRequests))(
    'loading %s makes the first call the server preloads with its HTML, and only that one',
    async (pattern, firstRequest) => {
      expect(pageRoutes.map((p) => p.path)).toContain(pattern);
      const fetched: string[] = [];
      vi.stubGlobal(
        'fetch',
        vi.fn(async (url: string) => {
          fetched.push(url);
          return new Response(JSON.stringify({ files: [], playlists: [] }), { status: 200 });
        }),
      );
      const params = { uuid: '5f0c7c1e-2b7a-4d53-9a43-0c6a2f1e8b11' };
      await loadPageAt(pattern.replace(':uuid', params.uuid), new QueryClient());
      expect(fetched).toEqual([`/api${firstRequest(params)}`]);
    },
  );
});
