import type {
  EndSessionRequest,
  EndSessionResponse,
  OfflineRefusal,
  OfflineSessionResult,
  OfflineSessionsResponse,
  StartSessionRequest,
  StartSessionResponse,
} from '@mesmer/shared/api/listening';
import type { OfflineSession, OfflineSessionsRequest } from '@mesmer/shared/api/offline-session';
import { extendStreak, localDay } from '@mesmer/shared/domain/streak';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import { type Db, withTransaction } from '../../db/client.ts';
import { type Access, requireUser, type SessionUser } from '../../platform/access.ts';
import type { Clock } from '../../platform/clock.ts';
import { Conflict, NotFound, Unauthorized } from '../../platform/errors.ts';
import { hashToken, newToken } from '../../platform/tokens.ts';
import { rollUpSession } from '../insights/index.ts';
import type { UsersService } from '../users/users.service.ts';
import {
  type CreditedSpan,
  createListeningRepo,
  type ListeningSessionRow,
  type ServedChange,
} from './listening.repo.ts';
import { createServedAudioBuffer, type PendingServed } from './served-audio-buffer.ts';
import { addServedRange, servedBytes } from './served-ranges.ts';

const MINUTE_MS = 60_000;
/** A listener's play of a file counts at most once in this window. */
export const PLAY_WINDOW_MS = 60 * MINUTE_MS;
/** A play counts after this much of the track was heard, or half the track when that is less. */
export const PLAY_MIN_MS = 30_000;
/** Offline sessions are credited only when they started within this long before they are sent. */
export const OFFLINE_MAX_AGE_MS = 7 * 24 * 60 * MINUTE_MS;

/**
 * Milliseconds of the track the session really had: all of
 * - the audio the media route served under it (distinct bytes, as a share of the file's duration),
 * - the wall-clock time since the session started,
 * - the file's duration,
 * - the time the player says it played, when it says (it can only lower the figure).
 */
export function heardMs(input: {
  startedAt: Date;
  endedAt: Date;
  fileDurationMs: number;
  deliveredMs: number;
  listenedMs?: number;
}): number {
  const wallClockMs = Math.max(0, input.endedAt.getTime() - input.startedAt.getTime());
  return Math.min(
    wallClockMs,
    input.fileDurationMs,
    input.deliveredMs,
    input.listenedMs ?? Number.POSITIVE_INFINITY,
  );
}

/** Milliseconds of `from`–`to` that the spans cover (overlapping spans count once). */
function coveredMs(from: number, to: number, spans: readonly CreditedSpan[]): number {
  const clipped = spans
    .map((s) => [Math.max(from, s.startedAt.getTime()), Math.min(to, s.endedAt.getTime())] as const)
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let reached = from;
  for (const [start, end] of clipped) {
    if (end <= reached) continue;
    covered += end - Math.max(start, reached);
    reached = end;
  }
  return covered;
}

/**
 * The listening time one session credits: what it heard (heardMs), and of that only time not
 * already credited, so overlapping sessions cannot count the same time twice. Online sessions end
 * now and pass `creditedUntil`, the end of the user's last credited session; offline sessions arrive
 * late, so they pass the credited sessions overlapping them (`creditedSpans`, decision 029).
 */
export function creditedMs(input: {
  startedAt: Date;
  endedAt: Date;
  creditedUntil: Date | null;
  creditedSpans?: readonly CreditedSpan[];
  fileDurationMs: number;
  deliveredMs: number;
  listenedMs?: number;
}): number {
  const from = Math.max(input.startedAt.getTime(), input.creditedUntil?.getTime() ?? 0);
  const to = input.endedAt.getTime();
  const uncreditedMs = Math.max(0, to - from) - coveredMs(from, to, input.creditedSpans ?? []);
  return Math.floor(Math.min(heardMs(input), Math.max(0, uncreditedMs)));
}

/**
 * One point per whole minute of credited listening, counted across sessions: the seconds below a
 * minute carry over to the next session (decision 026), so short tracks add up.
 */
export function pointsWithCarry(carryMs: number, credited: number): { points: number; carryMs: number } {
  const total = carryMs + credited;
  return { points: Math.floor(total / MINUTE_MS), carryMs: total % MINUTE_MS };
}

/** Whether a session that heard `heard` ms of a `durationMs` track counts as a play. */
export function countsAsPlay(heard: number, durationMs: number): boolean {
  return heard > 0 && heard >= Math.min(PLAY_MIN_MS, durationMs / 2);
}

/** What one media request served under a listening session. */
export interface ServedAudio {
  sessionToken: string;
  fileId: number;
  /** The stored audio's size in bytes. */
  audioSize: number;
  /** The inclusive byte range actually sent. */
  start: number;
  end: number;
}

/** The rules an offline session must pass before its time is looked at (decision 029). */
function offlineRefusal(
  session: { startedAt: Date; endedAt: Date },
  now: Date,
  playable: boolean,
  copiedAt: Date | null,
): OfflineRefusal | null {
  if (session.endedAt > now) return 'in-future';
  if (session.startedAt.getTime() < now.getTime() - OFFLINE_MAX_AGE_MS) return 'too-old';
  if (!playable) return 'no-access';
  if (!copiedAt || copiedAt > session.startedAt) return 'no-offline-copy';
  return null;
}

/** A session's binding and served audio, as a store wrote or read them. */
type StoredServed = Pick<ListeningSessionRow, 'id' | 'userId' | 'fileId' | 'audioSize' | 'servedRanges'>;

/**
 * The session with the pending audio merged, in the order it was served, binding the session to the
 * first file: audio of another file, or asked for by someone other than the session's user, is not
 * recorded; audio of another size replaces what was kept of the old one. Null: nothing changes.
 */
function withServed(session: StoredServed, pending: PendingServed[]): StoredServed | null {
  let stored: StoredServed = session;
  for (const served of pending) {
    if (session.userId !== null && session.userId !== served.userId) continue;
    if (stored.fileId !== null && stored.fileId !== served.fileId) continue;
    const sameAudio = stored.audioSize === null || stored.audioSize === served.audioSize;
    let ranges = sameAudio ? stored.servedRanges : [];
    for (const [start, end] of served.ranges) ranges = addServedRange(ranges, start, end);
    stored = { ...stored, fileId: served.fileId, audioSize: served.audioSize, servedRanges: ranges };
  }
  return stored.servedRanges === session.servedRanges && stored.fileId === session.fileId ? null : stored;
}

/** Sessions whose stored row a process remembers at most (one per listener playing now). */
const REMEMBERED_SESSIONS = 10_000;

/**
 * Stores served audio (decision 033) for one database. Each store is judged against the session's
 * row as this process last wrote or read it: pending audio that adds nothing to it costs no
 * statement (a listener seeking back and forth), and what does is a conditional update that
 * succeeds only while the row is still that one; the updates of all sessions stored at once (a
 * flush) go in one statement, so they cost the embedded database one commit, not one each. When a
 * row is not the one remembered (another process stored some, the session ended), it is locked,
 * read and merged as before. An ended session records nothing.
 */
function servedAudioStore(db: Db) {
  const repo = createListeningRepo(db);
  const lastStored = new LRUCache<string, StoredServed>({ max: REMEMBERED_SESSIONS });
  let batch: { change: ServedChange; written: (ok: boolean) => void; failed: (err: unknown) => void }[] = [];

  /** Whether `change` was written, in one statement with the others asked for in the same turn. */
  function updateInBatch(change: ServedChange): Promise<boolean> {
    return new Promise((written, failed) => {
      batch.push({ change, written, failed });
      if (batch.length > 1) return;
      setImmediate(() => {
        const sent = batch;
        batch = [];
        repo.recordServedIfUnchanged(sent.map((item) => item.change)).then(
          (ids) => {
            for (const item of sent) item.written(ids.has(item.change.known.id));
          },
          (err: unknown) => {
            for (const item of sent) item.failed(err);
          },
        );
      });
    });
  }

  return async (tokenHash: string, pending: PendingServed[]): Promise<void> => {
    const known = lastStored.get(tokenHash);
    if (known) {
      const next = withServed(known, pending);
      if (!next) return;
      if (await updateInBatch({ known, next })) {
        lastStored.set(tokenHash, next);
        return;
      }
      lastStored.delete(tokenHash);
    }
    await withTransaction(db, async (tx) => {
      const txRepo = createListeningRepo(tx);
      const session = await txRepo.lockSession(tokenHash);
      if (!session || session.endedAt) return;
      const next = withServed(session, pending);
      if (next) await txRepo.recordServed(session.id, next);
      lastStored.set(tokenHash, next ?? session);
    });
  };
}

export type ListeningService = ReturnType<typeof createListeningService>;

export function createListeningService({
  db,
  clock,
  access,
  users,
}: {
  db: Db;
  clock: Clock;
  access: Access;
  users: UsersService;
}) {
  const repo = createListeningRepo(db);
  // The app's pending served audio: the media route adds to it, a session's end stores it first.
  const servedAudio = createServedAudioBuffer(servedAudioStore(db));

  /**
   * Credits one offline session in its own transaction, serialised with the user's other credits
   * by the account lock (and with the file's plays by the file lock, taken first as `end` does).
   */
  async function creditOfflineSession(
    userId: number,
    sent: OfflineSession,
    playable: boolean,
  ): Promise<{ result: OfflineSessionResult; totalPoints: number; streak: number }> {
    const startedAt = new Date(sent.startedAt);
    const endedAt = new Date(sent.endedAt);
    const now = clock.now();
    return withTransaction(db, async (tx) => {
      const txRepo = createListeningRepo(tx);
      const fileDurationMs = (await txRepo.lockFile(sent.fileId)) ?? 0;
      const account = await txRepo.lockAccount(userId);
      if (!account) throw new Unauthorized();
      const answer = (
        status: OfflineSessionResult['status'],
        figures = { creditedMs: 0, points: 0 },
        reason?: OfflineRefusal,
      ) => ({
        result: {
          fileId: sent.fileId,
          startedAt: sent.startedAt,
          status,
          ...(reason && { reason }),
          ...figures,
        },
        totalPoints: account.points,
        streak: account.streak,
      });
      const refused = (reason: OfflineRefusal) => answer('refused', undefined, reason);

      // A retry after a lost answer: what the first call credited stands.
      const before = await txRepo.findOfflineSession(userId, sent.fileId, startedAt);
      if (before) return answer('already-credited', before);
      const copiedAt = await txRepo.offlineCopiedAt(userId, sent.fileId);
      const refusal = offlineRefusal({ startedAt, endedAt }, now, playable, copiedAt);
      if (refusal) return refused(refusal);

      // The kept copy is the whole file, so the audio delivered bounds nothing below the duration.
      const timing = {
        startedAt,
        endedAt,
        fileDurationMs,
        deliveredMs: fileDurationMs,
        listenedMs: sent.listenedMs,
      };
      const heard = heardMs(timing);
      if (heard <= 0) return refused('nothing-heard');
      const credited = creditedMs({
        ...timing,
        creditedUntil: null,
        creditedSpans: await txRepo.creditedSpans(userId, startedAt, endedAt),
      });
      if (credited === 0) return refused('overlap');

      const sessionId = await txRepo.insertOfflineSession({
        tokenHash: hashToken(newToken()),
        userId,
        fileId: sent.fileId,
        startedAt,
        endedAt,
      });
      const listener = `user:${userId}`;
      const play =
        countsAsPlay(heard, fileDurationMs) &&
        !(await txRepo.playCountedSince(
          listener,
          sent.fileId,
          new Date(endedAt.getTime() - PLAY_WINDOW_MS),
          new Date(endedAt.getTime() + PLAY_WINDOW_MS),
        ));
      if (play) await txRepo.countPlay(sessionId, sent.fileId, listener);
      await rollUpSession(tx, {
        sessionId,
        fileId: sent.fileId,
        endedAt,
        userId,
        listener,
        play,
        heardMs: heard,
        durationMs: fileDurationMs,
        served: null,
        source: 'offline',
        toyConnected: null,
        creditedMs: credited,
        timezone: account.timezone,
        optedOut: account.insightsOptOut,
      });
      const { points, carryMs } = pointsWithCarry(account.listeningCarryMs, credited);
      // The session's own day counts; one before the last counted day changes nothing (extendStreak).
      const day = localDay(endedAt, account.timezone);
      const streak =
        points > 0 ? extendStreak({ streak: account.streak, lastDay: account.lastListenDay }, day) : null;
      const totalPoints = await txRepo.award(userId, sessionId, {
        creditedMs: credited,
        points,
        carryMs,
        streak: streak ? { streak: streak.streak, lastListenDay: streak.lastDay ?? day } : undefined,
      });
      return {
        result: answer('credited', { creditedMs: credited, points }).result,
        totalPoints,
        streak: streak?.streak ?? account.streak,
      };
    });
  }

  return {
    /**
     * Anyone may start a session; a signed-in listener's session earns points when it ends.
     * The time zone sent is stored on the account when it may change (once a day).
     */
    async start(user: SessionUser | null, input: StartSessionRequest): Promise<StartSessionResponse> {
      if (user && input.timezone) await users.adoptTimezone(user.id, input.timezone);
      const token = newToken();
      await repo.insertSession({
        tokenHash: hashToken(token),
        userId: user?.id ?? null,
        startedAt: clock.now(),
        source: input.source,
      });
      return { token };
    },

    /**
     * The media route served bytes of a file's audio under a session. They are kept in memory and
     * stored within about a second (decision 033), so the response never waits on the database;
     * storing applies the rules of storeServed. `log` is the request's, for a store that fails.
     */
    recordServed(user: SessionUser | null, audio: ServedAudio, log: FastifyBaseLogger): void {
      servedAudio.add(hashToken(audio.sessionToken), {
        userId: user?.id ?? null,
        fileId: audio.fileId,
        audioSize: audio.audioSize,
        start: audio.start,
        end: audio.end,
        log,
      });
    },

    /**
     * Clean-up (modules/cleanup): deletes listening sessions nothing reads any more, inside the
     * caller's transaction `tx`. Answers how many went.
     */
    deleteStale: (tx: Db, before: Date): Promise<number> => createListeningRepo(tx).deleteStale(before),

    /**
     * Clean-up: clears the raw insight detail of sessions that ended before `before` (served ranges,
     * source, toy, tier), inside the caller's transaction `tx`. Answers how many sessions it cleared.
     */
    clearRawDetail: (tx: Db, before: Date): Promise<number> => createListeningRepo(tx).clearRawDetail(before),

    /** Stores all served audio still pending (the app's close); failures are logged, never thrown. */
    flushServed(): Promise<void> {
      return servedAudio.flush();
    },

    /**
     * The signed-in user downloaded every byte of the file's audio to keep it for offline listening
     * (the media route with `offline=1`): from now on the file's offline sessions may earn credit.
     */
    async recordOfflineCopy(user: SessionUser, fileId: number): Promise<void> {
      await repo.recordOfflineCopy(user.id, fileId, clock.now());
    },

    /**
     * Credits plays made offline from a kept copy, sent late (POST /api/session/offline, decision 029).
     * Each session is judged on its own, in order of start so the carry and the streak move forward
     * as the listening happened; the answers come back in the order sent.
     */
    async creditOffline(
      user: SessionUser | null,
      input: OfflineSessionsRequest,
    ): Promise<OfflineSessionsResponse> {
      const signedIn = requireUser(user);
      const viewer = await access.viewer(signedIn);
      const playable = await access.files.playable(viewer, [...new Set(input.sessions.map((s) => s.fileId))]);
      const order = input.sessions
        .map((session, index) => ({ session, index }))
        .sort((a, b) => Date.parse(a.session.startedAt) - Date.parse(b.session.startedAt));
      const results: OfflineSessionResult[] = [];
      let totals = { points: 0, totalPoints: 0, streak: 0 };
      for (const { session, index } of order) {
        const credit = await creditOfflineSession(signedIn.id, session, playable.has(session.fileId));
        results[index] = credit.result;
        totals = {
          points: totals.points + (credit.result.status === 'credited' ? credit.result.points : 0),
          totalPoints: credit.totalPoints,
          streak: credit.streak,
        };
      }
      return { sessions: results, ...totals };
    },

    /**
     * Ends a session once. What it heard is what the media route served of the file under it
     * (see heardMs): a session ended with another file than the one it was served, or for a file
     * the listener may no longer play, heard nothing. A play counts when enough was heard, once
     * per listener and file in PLAY_WINDOW_MS; points and the streak go to the signed-in listener
     * who started it, the streak's day in the account's stored time zone. A second end is a 409.
     */
    async end(
      user: SessionUser | null,
      input: EndSessionRequest,
      clientIp: string,
    ): Promise<EndSessionResponse> {
      const tokenHash = hashToken(input.sessionToken);
      // Every byte this process served under the session counts (another process's last second may not).
      await servedAudio.storeSession(tokenHash);
      const session = await repo.findSession(tokenHash);
      // Someone else's session reads as unknown, so tokens cannot be probed.
      if (!session || (session.userId !== null && session.userId !== user?.id)) {
        throw new NotFound('Listening session not found.');
      }
      if (session.endedAt) throw new Conflict('This listening session has already ended.');
      const viewer = await access.viewer(user);
      const visible = await access.files.visible(viewer, [input.fileId]);
      if (!visible.has(input.fileId)) throw new NotFound('File not found.');
      const served =
        session.fileId === input.fileId &&
        session.audioSize !== null &&
        session.audioSize > 0 &&
        (await access.files.playable(viewer, [input.fileId])).has(input.fileId);

      const now = clock.now();
      return withTransaction(db, async (tx) => {
        const txRepo = createListeningRepo(tx);
        if (!(await txRepo.claimEnd(session.id, now))) {
          throw new Conflict('This listening session has already ended.');
        }
        const nothing = { token: input.sessionToken, points: 0, totalPoints: 0, streak: 0 };
        // Locking the file serialises its plays, so one listener's play counts once per window.
        const fileDurationMs = (await txRepo.lockFile(input.fileId)) ?? 0;
        const deliveredMs =
          served && session.audioSize
            ? (servedBytes(session.servedRanges) / session.audioSize) * fileDurationMs
            : 0;
        const timing = {
          startedAt: session.startedAt,
          endedAt: now,
          fileDurationMs,
          deliveredMs,
          listenedMs: input.listenedMs,
        };
        const listener = session.userId !== null ? `user:${session.userId}` : `ip:${hashToken(clientIp)}`;
        const heard = heardMs(timing);
        const play =
          countsAsPlay(heard, fileDurationMs) &&
          !(await txRepo.playCountedSince(listener, input.fileId, new Date(now.getTime() - PLAY_WINDOW_MS)));
        if (play) await txRepo.countPlay(session.id, input.fileId, listener);
        // Insights' rollups grow with the end, in its transaction (docs/decisions/047).
        const rollUp = (credited: number, account: { timezone: string; insightsOptOut: boolean } | null) =>
          rollUpSession(tx, {
            sessionId: session.id,
            fileId: input.fileId,
            endedAt: now,
            userId: session.userId,
            listener,
            play,
            heardMs: heard,
            durationMs: fileDurationMs,
            served:
              served && session.audioSize
                ? { ranges: session.servedRanges, audioSize: session.audioSize }
                : null,
            source: session.source,
            toyConnected: input.toyConnected ?? null,
            creditedMs: credited,
            timezone: account?.timezone ?? null,
            optedOut: account?.insightsOptOut ?? false,
          });
        if (session.userId === null) {
          await rollUp(0, null);
          return nothing;
        }

        // Locking the account serialises a user's session ends, so credited time is never counted twice.
        const account = await txRepo.lockAccount(session.userId);
        if (!account) return nothing;
        const credited = creditedMs({
          ...timing,
          creditedUntil: await txRepo.lastCreditedEnd(session.userId),
        });
        await rollUp(credited, account);
        if (credited === 0) {
          return { ...nothing, totalPoints: account.points, streak: account.streak };
        }
        const { points, carryMs } = pointsWithCarry(account.listeningCarryMs, credited);
        // The streak counts days on which a point was earned.
        const today = localDay(now, account.timezone);
        const streak =
          points > 0 ? extendStreak({ streak: account.streak, lastDay: account.lastListenDay }, today) : null;
        const totalPoints = await txRepo.award(session.userId, session.id, {
          creditedMs: credited,
          points,
          carryMs,
          streak: streak ? { streak: streak.streak, lastListenDay: streak.lastDay ?? today } : undefined,
        });
        return {
          token: input.sessionToken,
          points,
          totalPoints,
          streak: streak?.streak ?? account.streak,
        };
      });
    },
  };
}
