import { eq } from 'drizzle-orm';
import { type Db, withTransaction } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';

export function createAvatarRepo(db: Db) {
  return {
    /** Sets the user's image and answers the one it replaced. */
    async replaceImage(userId: number, url: string | null): Promise<string | null> {
      return withTransaction(db, async (tx) => {
        const [old] = await tx
          .select({ imageUrl: users.imageUrl })
          .from(users)
          .where(eq(users.id, userId))
          .for('update');
        await tx.update(users).set({ imageUrl: url }).where(eq(users.id, userId));
        return old?.imageUrl ?? null;
      });
    },
  };
}
