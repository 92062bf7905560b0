import { asc, eq } from 'drizzle-orm';
import { type Db, withTransaction } from '../../db/client.ts';
import { lovenseConnections, lovenseToys, users } from '../../db/schema/index.ts';

export type LovenseConnectionRow = Omit<typeof lovenseConnections.$inferInsert, 'userId' | 'updatedAt'>;
export interface LovenseToyRow {
  toyId: string;
  name: string;
  nickName: string | null;
  connected: boolean;
}

/** A user's Lovense pairing: the secret we gave Lovense (hashed, users.lovense_token), the app's address, its toys. */
export function createLovenseRepo(db: Db) {
  return {
    /** The SHA-256 of the account's current pairing secret, or null (also for no such account). */
    async tokenHashOf(userId: number): Promise<string | null> {
      const [row] = await db.select({ hash: users.lovenseToken }).from(users).where(eq(users.id, userId));
      return row?.hash ?? null;
    },

    async setTokenHash(userId: number, hash: string | null) {
      await db.update(users).set({ lovenseToken: hash }).where(eq(users.id, userId));
    },

    /** The app's address and the toys it reported replace what was kept. */
    async saveConnection(userId: number, connection: LovenseConnectionRow, toys: LovenseToyRow[], at: Date) {
      await withTransaction(db, async (tx) => {
        await tx
          .insert(lovenseConnections)
          .values({ userId, ...connection, updatedAt: at })
          .onConflictDoUpdate({ target: lovenseConnections.userId, set: { ...connection, updatedAt: at } });
        await tx.delete(lovenseToys).where(eq(lovenseToys.userId, userId));
        if (toys.length > 0) {
          await tx.insert(lovenseToys).values(toys.map((t) => ({ userId, ...t, updatedAt: at })));
        }
      });
    },

    async hasConnection(userId: number): Promise<boolean> {
      const [row] = await db
        .select({ userId: lovenseConnections.userId })
        .from(lovenseConnections)
        .where(eq(lovenseConnections.userId, userId));
      return row !== undefined;
    },

    async toys(userId: number) {
      return db
        .select({ id: lovenseToys.toyId, name: lovenseToys.name, connected: lovenseToys.connected })
        .from(lovenseToys)
        .where(eq(lovenseToys.userId, userId))
        .orderBy(asc(lovenseToys.name), asc(lovenseToys.toyId));
    },

    /** Forgets the connection, its toys and the pairing secret. */
    async disconnect(userId: number) {
      await withTransaction(db, async (tx) => {
        await tx.delete(lovenseToys).where(eq(lovenseToys.userId, userId));
        await tx.delete(lovenseConnections).where(eq(lovenseConnections.userId, userId));
        await tx.update(users).set({ lovenseToken: null }).where(eq(users.id, userId));
      });
    },
  };
}
