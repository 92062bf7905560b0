import type { generateQuery } from '@mesmer/shared/api/generator';
import { generatorRoutes } from '@mesmer/shared/routes/generator';
import { queryOptions, skipToken } from '@tanstack/react-query';
import type { z } from 'zod';
import { call } from '../lib/api-client.ts';

/** GET /api/playlist/generate parameters as the server reads them. */
export type GenerateParams = z.output<typeof generateQuery>;

/** One press of Generate: its settings and a counter, so each press draws a fresh playlist. */
export interface GenerateRun {
  params: GenerateParams;
  run: number;
}

export const generatorKeys = {
  all: ['generator'] as const,
  run: (request: GenerateRun | null) => [...generatorKeys.all, request] as const,
};

/** GET /api/playlist/generate (404 when nothing fits); idle until the first run. */
export function generatedPlaylistQuery(request: GenerateRun | null) {
  return queryOptions({
    queryKey: generatorKeys.run(request),
    queryFn: request
      ? ({ signal }) => call(generatorRoutes.generate, { query: request.params, signal })
      : skipToken,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
