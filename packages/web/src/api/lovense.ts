import { lovenseRoutes } from '@mesmer/shared/routes/lovense';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';

export const lovenseKeys = {
  all: ['lovense'] as const,
  toys: () => [...lovenseKeys.all, 'toys'] as const,
};

/** GET /api/lovense/toys: whether Lovense Remote reported in, and its toys. */
export const lovenseToysQuery = queryOptions({
  queryKey: lovenseKeys.toys(),
  queryFn: ({ signal }) => call(lovenseRoutes.toys, { signal }),
});
