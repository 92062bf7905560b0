import { timingSafeEqual } from 'node:crypto';
import {
  isLovenseDuration,
  LOVENSE_NOT_CONFIGURED,
  type LovenseCallback,
  type LovenseCommandRequest,
  type LovenseQr,
  type LovenseToys,
  MAX_COMMAND_SECONDS,
} from '@mesmer/shared/api/lovense';
import { MAX_DEVICE_LEVEL } from '@mesmer/shared/domain/haptic-cues';
import { INT_MAX } from '@mesmer/shared/domain/limits';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { SessionUser } from '../../platform/access.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError, BadRequest, Conflict, Forbidden } from '../../platform/errors.ts';
import type { Limit, RateLimiter } from '../../platform/rate-limit.ts';
import { hashToken, newToken } from '../../platform/tokens.ts';
import { createLovenseClient, LovenseFailed } from './lovense.client.ts';
import { createLovenseRepo } from './lovense.repo.ts';

class LovenseNotConfigured extends AppError {
  constructor() {
    super(503, LOVENSE_NOT_CONFIGURED);
  }
}

/** Per account: the player sends only level changes, and drops stale ones when they come faster. */
export const LOVENSE_COMMANDS: Limit = { name: 'lovense commands', max: 20, windowMs: 1000 };
/** Per account: each QR code is a call to Lovense. */
export const LOVENSE_QR_CODES: Limit = { name: 'lovense qr codes', max: 10, windowMs: 60_000 };

/** What the test button sends. */
export const TEST_VIBRATION = { level: 10, timeSec: 2 } as const;

/** Lovense's answer when the user's Lovense Remote app is not reachable. */
const APP_OFFLINE = 507;

const sameHash = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Lovense pairing and commands: a QR code bound to a secret we keep hashed, the callback
 * Lovense Remote sends after the scan (trusted only with that secret), the toys it reported, and
 * vibration commands through Lovense's server.
 */
export type LovenseService = ReturnType<typeof createLovenseService>;

export function createLovenseService({
  db,
  clock,
  config,
  limiter,
}: {
  db: Db;
  clock: Clock;
  config: Config;
  limiter: RateLimiter;
}) {
  const repo = createLovenseRepo(db);
  const settings = config.lovense;
  const client = settings ? createLovenseClient(settings) : null;

  function lovense() {
    if (!client) throw new LovenseNotConfigured();
    return client;
  }

  async function send(user: SessionUser, input: LovenseCommandRequest) {
    const api = lovense();
    // The route's schema checks these; callers inside the server get the same rule (Lovense's ranges).
    if (!Number.isInteger(input.level) || input.level < 0 || input.level > MAX_DEVICE_LEVEL)
      throw new BadRequest('level', `must be a whole number from 0 to ${MAX_DEVICE_LEVEL}`);
    if (!isLovenseDuration(input.timeSec) || input.timeSec > MAX_COMMAND_SECONDS)
      throw new BadRequest('timeSec', 'must be 0 (until changed) or more than 1');
    await limiter.consume(LOVENSE_COMMANDS, String(user.id));
    if (!(await repo.hasConnection(user.id))) {
      throw new Conflict('No Lovense toy is connected. Connect one on your account page first.');
    }
    const code = await api.command({
      uid: String(user.id),
      action: `Vibrate:${input.level}`,
      timeSec: input.timeSec,
    });
    if (code === APP_OFFLINE) {
      throw new Conflict('Lovense Remote is offline. Open the app and keep your toy connected.');
    }
    if (code !== 200) throw new LovenseFailed('Lovense refused the command. Please try again shortly.');
  }

  return {
    /** A new pairing QR code; the secret of any earlier one stops working. */
    async qr(user: SessionUser): Promise<LovenseQr> {
      const api = lovense();
      await limiter.consume(LOVENSE_QR_CODES, String(user.id));
      const utoken = newToken();
      const answer = await api.qrCode({ uid: String(user.id), uname: user.username, utoken });
      const image = await api.imageAsDataUrl(answer.qr);
      await repo.setTokenHash(user.id, hashToken(utoken));
      return { qrcodeUrl: image, code: answer.code };
    },

    /** Lovense Remote's report; 403 unless `uid` and `utoken` are a pairing we started. */
    async callback(input: LovenseCallback): Promise<void> {
      lovense();
      const forged = new Forbidden('This Lovense callback is not one we asked for.');
      const userId = /^\d{1,10}$/.test(input.uid) ? Number(input.uid) : 0;
      if (userId < 1 || userId > INT_MAX) throw forged;
      const expected = await repo.tokenHashOf(userId);
      if (!expected || !sameHash(expected, hashToken(input.utoken))) throw forged;
      const toys = new Map(
        Object.entries(input.toys).map(([key, toy]) => [
          toy.id || key,
          {
            toyId: toy.id || key,
            name: toy.name || toy.nickName || 'Lovense toy',
            nickName: toy.nickName || null,
            connected: toy.status === 1 || toy.status === '1' || toy.status === true,
          },
        ]),
      );
      await repo.saveConnection(
        userId,
        {
          domain: input.domain,
          httpPort: input.httpPort ?? null,
          httpsPort: input.httpsPort ?? null,
          wsPort: input.wsPort ?? null,
          wssPort: input.wssPort ?? null,
          appType: input.appType ?? null,
          platform: input.platform ?? null,
          appVersion: input.appVersion ?? input.version ?? null,
        },
        [...toys.values()],
        clock.now(),
      );
    },

    async toys(user: SessionUser): Promise<LovenseToys> {
      lovense();
      const [connected, toys] = await Promise.all([repo.hasConnection(user.id), repo.toys(user.id)]);
      return { connected, toys };
    },

    command: send,

    test(user: SessionUser) {
      return send(user, TEST_VIBRATION);
    },

    async disconnect(user: SessionUser): Promise<void> {
      lovense();
      await repo.disconnect(user.id);
    },
  };
}
