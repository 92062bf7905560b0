import { asc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { tags } from '../../db/schema/index.ts';

export function createTagsRepo(db: Db) {
  return {
    listTags: () => db.select({ id: tags.id, name: tags.name }).from(tags).orderBy(asc(tags.name)),
  };
}
