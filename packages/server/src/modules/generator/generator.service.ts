import type { GenerateResponse, generateQuery } from '@mesmer/shared/api/generator';
import { AWAKENER_TYPE_ID, INDUCTION_TYPE_ID, LOOP_TYPE_ID } from '@mesmer/shared/domain/file-types';
import {
  GENERATOR_DEFAULT_BODY_TYPES,
  generatePlaylist,
  type RandomSource,
} from '@mesmer/shared/domain/generator';
import { SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import type { z } from 'zod';
import type { Access, SessionUser } from '../../platform/access.ts';
import { NotFound } from '../../platform/errors.ts';
import type { FilesService } from '../files/files.service.ts';
import type { TriggersService } from '../triggers/triggers.service.ts';

/** At most this many candidates (a random sample) go into one generation. */
const CANDIDATE_LIMIT = 2000;

export type GeneratorService = ReturnType<typeof createGeneratorService>;

export function createGeneratorService({
  access,
  files,
  triggers,
  random = Math.random,
}: {
  access: Access;
  files: FilesService;
  triggers: TriggersService;
  /** Where the picks come from (tests pass a fixed one). */
  random?: RandomSource;
}) {
  return {
    async generate(
      user: SessionUser | null,
      query: z.output<typeof generateQuery>,
    ): Promise<GenerateResponse> {
      const viewer = await access.viewer(user);
      const bodyTypes = query.fileTypes?.length ? query.fileTypes : GENERATOR_DEFAULT_BODY_TYPES;
      const candidates = await files.playableSample(
        viewer,
        {
          fileTypes: [...new Set([...bodyTypes, INDUCTION_TYPE_ID, AWAKENER_TYPE_ID, LOOP_TYPE_ID])],
          maxDuration: query.maxDuration,
          authorId: query.communityFiles ? undefined : SITE_OWNER_ID,
        },
        CANDIDATE_LIMIT,
      );
      // The sample comes in random order; sorting makes the injected random source decide alone.
      candidates.sort((a, b) => a.id - b.id);
      const triggerWeights = await triggers.weights(query.includeTriggers ?? []);
      const picked = generatePlaylist(
        candidates.map((f) => ({ ...f, authorId: f.author.id, triggerIds: f.triggers.map((t) => t.id) })),
        {
          fileTypes: query.fileTypes,
          includeTriggers: query.includeTriggers,
          hideTriggers: query.hideTriggers,
          communityFiles: query.communityFiles,
          includeInduction: query.includeInduction,
          includeAwakener: query.includeAwakener,
          includeLoops: query.includeLoops,
          maxDuration: query.maxDuration,
          triggerWeights,
        },
        random,
      );
      if (picked.length === 0)
        throw new NotFound('No playlist could be generated with the current settings.');
      const result = picked.map(({ authorId: _, triggerIds: __, ...file }) => file);
      return { files: result, totalDuration: result.reduce((sum, f) => sum + f.duration, 0) };
    },
  };
}
