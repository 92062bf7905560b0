import { tagsRoutes } from '@mesmer/shared/routes/tags';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';

/** File types and tags, and the creators: two roots of their own, outside `fileKeys.all`. */
export const tagKeys = {
  all: ['tags'] as const,
  creators: ['creators'] as const,
};

/** GET /api/tags: file types and tags; they rarely change. */
export const tagsQuery = queryOptions({
  queryKey: tagKeys.all,
  queryFn: () => call(tagsRoutes.list),
  staleTime: 10 * 60_000,
});

/** GET /api/creators */
export const creatorsQuery = queryOptions({
  queryKey: tagKeys.creators,
  queryFn: async () => (await call(tagsRoutes.creators)).creators,
  staleTime: 10 * 60_000,
});
