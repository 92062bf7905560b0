import { eq } from 'drizzle-orm';
import type { App } from '../../app.ts';
import type { Db } from '../../db/client.ts';
import { files, listeningSessions, users } from '../../db/schema/index.ts';
import { createFile, type FileOverrides } from '../../test/library-factories.ts';

/** Test data for the listening and leaderboard tests (rows the library module would normally create). */

/** Bytes of stored audio per millisecond of a test file: 1 byte = 100 ms. */
export const BYTES_PER_MS = 1 / 100;

/**
 * A file with its audio stored (one byte per 100 ms of duration) and a signed audio link
 * maker; `audioUrl(session)` adds a listening session as the player does.
 */
export async function createAudioFile(app: App, file: FileOverrides) {
  const row = await createFile(app.ctx.db, file);
  const size = Math.round((file.duration ?? 60_000) * BYTES_PER_MS);
  await app.services.storage.put(row.audioKey, Buffer.alloc(size, 7));
  const { signer } = app.services;
  return {
    ...row,
    size,
    audioUrl(session?: string) {
      const url = signer.sign({ urlPath: `/media/${row.audioKey}`, fileId: row.id }, app.ctx.clock.now());
      return session ? `${url}&session=${encodeURIComponent(session)}` : url;
    },
  };
}
export type AudioTestFile = Awaited<ReturnType<typeof createAudioFile>>;

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
