import type { AppContext } from '../../platform/context.ts';
import { createTagsRepo } from './tags.repo.ts';

export function createTagsService(ctx: AppContext) {
  const repo = createTagsRepo(ctx.db);
  return {
    /** Public: every tag by name. */
    list: () => repo.listTags(),
  };
}
