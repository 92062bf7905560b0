import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Counts of changes to what the process keeps between requests: one row per kind of kept data
 * (`files`, `playlists`, `sessions`). Statement triggers generated from db/kept-generations.ts raise
 * a row in the writing transaction, so a reader sees the new count exactly when it can see the change.
 */
export const keptGenerations = pgTable('kept_generations', {
  name: text('name').primaryKey(),
  generation: bigint('generation', { mode: 'number' }).notNull().default(0),
});
