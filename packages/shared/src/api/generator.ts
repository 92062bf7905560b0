import { z } from 'zod';
import { GENERATOR_DEFAULT_DURATION_MS, GENERATOR_MAX_DURATION_MS } from '../domain/generator.ts';
import { generatorRoutes } from '../routes/generator.ts';
import { errorResponse, idList, queryBool, queryInt } from './common.ts';
import { defineRoute } from './contract.ts';
import { audioFile } from './files.ts';

/**
 * GET /api/playlist/generate. fileTypes, includeTriggers and hideTriggers carry ids
 * "plus 1" (the client sends index + 1, which are the ids). 404 when nothing fits.
 */
export const generateQuery = z.object({
  fileTypes: idList().optional(),
  includeTriggers: idList().optional(),
  hideTriggers: idList().optional(),
  communityFiles: queryBool.default(false),
  includeInduction: queryBool.default(true),
  includeAwakener: queryBool.default(true),
  includeLoops: queryBool.default(false),
  maxDuration: queryInt(0, GENERATOR_MAX_DURATION_MS).default(GENERATOR_DEFAULT_DURATION_MS),
});
export type GenerateQuery = z.input<typeof generateQuery>;
export const generateResponse = z.object({ files: z.array(audioFile), totalDuration: z.number().int() });
export type GenerateResponse = z.infer<typeof generateResponse>;

export const generatorApi = {
  generate: defineRoute(generatorRoutes.generate, {
    tags: ['playlists'],
    description:
      'A random playlist (docs/decisions/004-playlist-generator.md): induction first, awakener last, a body of ' +
      'the chosen types weighted toward includeTriggers, nothing with a hideTriggers trigger, no locked files, ' +
      'at most maxDuration ms. 404 "No playlist could be generated with the current settings." when nothing fits.',
    query: generateQuery,
    responses: { 200: generateResponse, 400: errorResponse, 404: errorResponse },
  }),
};
