import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { triggers, users } from '../../db/schema/index.ts';

const triggerColumns = {
  id: triggers.id,
  uuid: triggers.uuid,
  name: triggers.name,
  description: triggers.description,
  creatorId: users.id,
  creatorUsername: users.username,
};

export type TriggerRow = {
  id: number;
  uuid: string;
  name: string;
  description: string;
  creatorId: number;
  creatorUsername: string;
};

export function createTriggersRepo(db: Db) {
  const base = () =>
    db.select(triggerColumns).from(triggers).innerJoin(users, eq(users.id, triggers.creatorId));
  return {
    listByName: (): Promise<TriggerRow[]> =>
      base().orderBy(asc(sql`lower(${triggers.name})`), asc(triggers.id)),
    async findByUuid(uuid: string): Promise<TriggerRow | null> {
      const [row] = await base().where(eq(triggers.uuid, uuid));
      return row ?? null;
    },
    /** By the detail route's slug: the name with whitespace as underscores, lowercased. */
    async findBySlug(slug: string): Promise<TriggerRow | null> {
      const [row] = await base()
        .where(sql`lower(regexp_replace(trim(${triggers.name}), '\\s+', '_', 'g')) = ${slug}`)
        .orderBy(asc(triggers.id))
        .limit(1);
      return row ?? null;
    },
    /** Inserts; null when the name is already taken (case-insensitive). */
    async insert(values: { name: string; description: string; creatorId: number }): Promise<number | null> {
      const rows = await db
        .insert(triggers)
        .values(values)
        .onConflictDoNothing()
        .returning({ id: triggers.id });
      return rows[0]?.id ?? null;
    },
    async findById(id: number): Promise<TriggerRow | null> {
      const [row] = await base().where(eq(triggers.id, id));
      return row ?? null;
    },
  };
}
