import type { Db } from '../../db/client.ts';
import { createTagsRepo } from './tags.repo.ts';

export type TagsService = ReturnType<typeof createTagsService>;

export function createTagsService({ db }: { db: Db }) {
  const repo = createTagsRepo(db);
  return {
    /** Public: every tag by name. */
    list: () => repo.listTags(),
  };
}
