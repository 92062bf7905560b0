import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { files, listeningSessions, users } from '../../db/schema/index.ts';

/** Test data for the listening and leaderboard tests (rows the library module would normally create). */

export async function insertFile(
  db: Db,
  file: { authorId: number; durationMs: number; isPublic?: boolean; name?: string },
): Promise<number> {
  const [row] = await db
    .insert(files)
    .values({
      name: file.name ?? 'Test track',
      fileType: 1,
      duration: file.durationMs,
      isPublic: file.isPublic ?? true,
      audioKey: 'audio/test.wav',
      audioType: 'audio/wav',
      authorId: file.authorId,
      uploaderId: file.authorId,
    })
    .returning({ id: files.id });
  return row.id;
}

export async function filePlays(db: Db, fileId: number): Promise<number> {
  const [row] = await db.select({ plays: files.plays }).from(files).where(eq(files.id, fileId));
  return row.plays;
}

export async function listenerState(db: Db, userId: number) {
  const [row] = await db
    .select({ points: users.points, streak: users.streak, lastListenDay: users.lastListenDay })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

export async function setListenerState(
  db: Db,
  userId: number,
  state: { points?: number; streak?: number; lastListenDay?: string | null },
) {
  await db.update(users).set(state).where(eq(users.id, userId));
}

export async function storedSessions(db: Db) {
  return db.select().from(listeningSessions).orderBy(listeningSessions.id);
}
