import { bigint, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Counts of changes to what the process keeps between requests: one row per kind of kept data
 * (`files`, `playlists`, `sessions`, ...). Triggers generated from db/kept-generations.ts raise a
 * row in the writing transaction, so a reader sees the new count exactly when it can see the change.
 */
export const keptGenerations = pgTable('kept_generations', {
  name: text('name').primaryKey(),
  generation: bigint('generation', { mode: 'number' }).notNull().default(0),
});

/**
 * The rows behind the last raises of a generation that logs them (db/kept-generations.ts): each
 * raise's row id and the row as it was before (null for an insert), so that a kept order can tell
 * whether the changes since it was computed touched it (the row matched its filter before or after).
 */
export const keptChanges = pgTable(
  'kept_changes',
  {
    generationName: text('generation_name').notNull(),
    generation: bigint('generation', { mode: 'number' }).notNull(),
    rowId: integer('row_id').notNull(),
    before: jsonb('before'),
  },
  (t) => [index('kept_changes_generation_idx').on(t.generationName, t.generation)],
);
