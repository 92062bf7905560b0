import { SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { triggers, users } from '../../db/schema/index.ts';

/** The vocabulary has no creator and counts as the site owner's. */
const ownerId = sql<number>`coalesce(${triggers.creatorId}, ${SITE_OWNER_ID})`;

const triggerColumns = {
  id: triggers.id,
  uuid: triggers.uuid,
  name: triggers.name,
  description: triggers.description,
  category: triggers.category,
  weight: triggers.weight,
  pending: triggers.pending,
  creatorId: ownerId.mapWith(Number),
  creatorUsername: users.username,
};

export type TriggerRow = {
  id: number;
  uuid: string;
  name: string;
  description: string;
  category: string | null;
  weight: number;
  pending: boolean;
  creatorId: number;
  /** Null for the vocabulary while user 1 does not exist. */
  creatorUsername: string | null;
};

const published = eq(triggers.pending, false);

export function createTriggersRepo(db: Db) {
  const base = (where: SQL | undefined) =>
    db.select(triggerColumns).from(triggers).leftJoin(users, sql`${users.id} = ${ownerId}`).where(where);
  return {
    listByName: (): Promise<TriggerRow[]> =>
      base(published).orderBy(asc(sql`lower(${triggers.name})`), asc(triggers.id)),
    /** Pending requests, oldest first; of one requester when `creatorId` is given. */
    listPending: (creatorId?: number): Promise<TriggerRow[]> =>
      base(
        and(
          eq(triggers.pending, true),
          creatorId === undefined ? undefined : eq(triggers.creatorId, creatorId),
        ),
      ).orderBy(asc(triggers.createdAt), asc(triggers.id)),
    async findByUuid(uuid: string): Promise<TriggerRow | null> {
      const [row] = await base(and(published, eq(triggers.uuid, uuid)));
      return row ?? null;
    },
    /** By the detail route's slug: the name with whitespace as underscores, lowercased. */
    async findBySlug(slug: string): Promise<TriggerRow | null> {
      const [row] = await base(
        and(published, sql`lower(regexp_replace(trim(${triggers.name}), '\\s+', '_', 'g')) = ${slug}`),
      )
        .orderBy(asc(triggers.id))
        .limit(1);
      return row ?? null;
    },
    /** Published or pending. */
    async findById(id: number): Promise<TriggerRow | null> {
      const [row] = await base(eq(triggers.id, id));
      return row ?? null;
    },
    /** The weights of published triggers among `ids`. */
    async weights(ids: readonly number[]): Promise<Map<number, number>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: triggers.id, weight: triggers.weight })
        .from(triggers)
        .where(and(published, inArray(triggers.id, [...ids])));
      return new Map(rows.map((r) => [r.id, r.weight]));
    },
    /** Inserts; null when the name is already taken (case-insensitive). */
    async insert(values: {
      name: string;
      description: string;
      creatorId: number;
      pending: boolean;
    }): Promise<number | null> {
      const rows = await db
        .insert(triggers)
        .values(values)
        .onConflictDoNothing()
        .returning({ id: triggers.id });
      return rows[0]?.id ?? null;
    },
    /** False when the trigger does not exist. */
    async update(
      id: number,
      set: { name?: string; description?: string; pending?: false },
    ): Promise<boolean> {
      if (Object.keys(set).length === 0) return (await this.findById(id)) !== null;
      const rows = await db
        .update(triggers)
        .set(set)
        .where(eq(triggers.id, id))
        .returning({ id: triggers.id });
      return rows.length > 0;
    },
    /** Whether another trigger already has this name (ignoring case). */
    async nameTaken(name: string, exceptId: number): Promise<boolean> {
      const rows = await db
        .select({ id: triggers.id })
        .from(triggers)
        .where(and(sql`lower(${triggers.name}) = lower(${name})`, sql`${triggers.id} <> ${exceptId}`))
        .limit(1);
      return rows.length > 0;
    },
    async delete(id: number): Promise<boolean> {
      const rows = await db.delete(triggers).where(eq(triggers.id, id)).returning({ id: triggers.id });
      return rows.length > 0;
    },
  };
}
