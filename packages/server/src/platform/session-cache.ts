import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client.ts';
import type { Generations } from '../db/library-generation.ts';
import { createAccessRepo, type FoundSession, type SessionUser } from './access.repo.ts';
import { hashToken, newToken } from './tokens.ts';

/** How stale a session's last-seen time may get before a request writes it again. */
const SESSION_TOUCH_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** How long a rotated-away token still works: requests the browser sent before it got the new one. */
const ROTATION_GRACE_MS = 60 * 1000;

/** How many session users a process keeps (decision 034): as many signed-in users at once. */
const KEPT_SESSION_USERS = 10_000;

/** The memberships read with a session user, for the viewer of the requests it serves. */
export type SessionMemberships = FoundSession['memberships'];

/** A session user kept in the process, with what its session was read at. */
interface KeptSession {
  user: SessionUser;
  memberships: SessionMemberships;
  /** The session generation the lookup read with it: kept while it is current. */
  generation: number;
  expiresAt: Date;
  /** As read, or as this process last touched it: never later than the stored time. */
  lastSeenAt: Date;
}

/**
 * After a change of roles: each session of the user gets a new token at its next browser request.
 * Runs in the caller's transaction (the one that changes the roles).
 */
export function rotateSessionsOnNextRequest(tx: Db, userId: number): Promise<void> {
  return createAccessRepo(tx).markForRotation(userId);
}

export type SessionCache = ReturnType<typeof createSessionCache>;

/**
 * The session users of one database, found by the session lookup and kept by token hash (decision
 * 034): a request whose session is kept costs a shared read of the generations (migration 0012;
 * the read the request's kept answer uses too) instead of the lookup. Every write that can change what the lookup answers raises that
 * generation in its transaction, so a kept user is exactly what the lookup would answer while it
 * is current; whether the session is still live at `now` is judged from its kept end and last-seen
 * time. Entries read at an older generation than the newest seen are useless and dropped at once.
 * The app builds one (modules/index.ts); the permission checks are platform/access.ts.
 */
export function createSessionCache(db: Db, readGenerations: () => Promise<Generations>) {
  const repo = createAccessRepo(db);
  let newestGeneration = 0;
  const byTokenHash = new LRUCache<string, KeptSession>({ max: KEPT_SESSION_USERS });
  /**
   * Kept by the user object, which lives as long as its request, or as long as it is kept (above):
   * memberships raise the session generation as the user does.
   */
  const membershipsOfUser = new WeakMap<SessionUser, SessionMemberships>();
  /** Session users whose session waits for a new token (their roles changed since it was issued). */
  const rotationPending = new WeakSet<SessionUser>();

  /** Generations only rise: users kept at an older one than `generation` will never be used again. */
  const seeGeneration = (generation: number) => {
    if (generation <= newestGeneration) return;
    newestGeneration = generation;
    byTokenHash.clear();
  };

  return {
    /**
     * The user behind a session token while the session lives: until its absolute end, and while it
     * is used at least once every `idleDays` (SESSION_IDLE_DAYS; its last use is written at most hourly).
     */
    async sessionUser(
      token: string,
      now: Date,
      idleDays: number,
      /** The generations as read for this request, when it has begun reading them. */
      generations?: Promise<Generations>,
    ): Promise<SessionUser | null> {
      const tokenHash = hashToken(token);
      const idleSince = new Date(now.getTime() - idleDays * DAY_MS);
      // The lookup's own rule (live_session_user), for a kept session.
      const live = (s: KeptSession) =>
        s.expiresAt.getTime() > now.getTime() && s.lastSeenAt.getTime() > idleSince.getTime();

      if (byTokenHash.has(tokenHash)) {
        const generation = (await (generations ?? readGenerations())).sessions;
        seeGeneration(generation);
        // Looked up again after the await: a newer generation may have dropped it meanwhile.
        const entry = byTokenHash.get(tokenHash);
        if (entry && entry.generation === generation && live(entry)) {
          if (now.getTime() - entry.lastSeenAt.getTime() > SESSION_TOUCH_MS) {
            await repo.touchSession(tokenHash, now);
            entry.lastSeenAt = now;
          }
          return entry.user;
        }
      }

      const found = await repo.sessionUser(tokenHash, now, idleSince);
      if (!found) {
        byTokenHash.delete(tokenHash);
        return null;
      }
      if (now.getTime() - found.lastSeenAt.getTime() > SESSION_TOUCH_MS) {
        await repo.touchSession(tokenHash, now);
        found.lastSeenAt = now;
      }
      // Requests may share a kept user object: nothing mutates a request's user (req.user, the
      // services' `user` arguments: none assigns to it or its roles), and freezing it makes sure.
      Object.freeze(found.user.roles);
      Object.freeze(found.user);
      membershipsOfUser.set(found.user, found.memberships);
      seeGeneration(found.generation);
      if (found.rotatePending) {
        // Rare (the roles just changed) and rotated by the user object at this request: not kept.
        rotationPending.add(found.user);
        byTokenHash.delete(tokenHash);
      } else if (found.generation === newestGeneration) {
        const { user, memberships, generation, expiresAt, lastSeenAt } = found;
        byTokenHash.set(tokenHash, { user, memberships, generation, expiresAt, lastSeenAt });
      }
      return found.user;
    },

    /** The memberships read with a session user (one statement for both); undefined for other users. */
    membershipsOf: (user: SessionUser): SessionMemberships | undefined => membershipsOfUser.get(user),

    /**
     * The session's new token when its user's roles changed since it was issued (the old token stops
     * working a minute later), else null. For browsers, whose cookie takes the new token without their knowing.
     */
    async rotateIfPending(user: SessionUser, token: string, now: Date): Promise<string | null> {
      if (!rotationPending.has(user)) return null;
      rotationPending.delete(user);
      const fresh = newToken();
      const oldEndsAt = new Date(now.getTime() + ROTATION_GRACE_MS);
      return (await repo.rotate(hashToken(token), hashToken(fresh), now, oldEndsAt)) ? fresh : null;
    },
  };
}
