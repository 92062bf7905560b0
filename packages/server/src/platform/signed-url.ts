import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import type { Config } from '../config.ts';

const HOUR_S = 3600;
/** How long a signed media link works (at least; expiry is rounded up to the hour). */
export const SIGNED_URL_LIFETIME_S = 6 * HOUR_S;

/** What a signed media link names: the stored object and the file it belongs to. */
export interface SignedMedia {
  urlPath: string;
  fileId: number;
}

export interface UrlSigner {
  /**
   * `path?file=<id>&exp=<unix seconds>&sig=<hex>`. The file id is signed too, so the media
   * route can ask, at each request, whether the viewer may still play that file.
   */
  sign(media: SignedMedia, now: Date): string;
  verify(
    media: { urlPath: string; fileId: string | undefined },
    exp: string | undefined,
    sig: string | undefined,
    now: Date,
  ): boolean;
}

/** Signed links kept: a list page signs up to 60, and each HMAC cost more than the rest of its file. */
const KEPT_SIGNED_URLS = 20_000;

export function createUrlSigner(secret: string): UrlSigner {
  const mac = (urlPath: string, fileId: string, exp: string) =>
    createHmac('sha256', secret).update(`${urlPath}\n${fileId}\n${exp}`).digest('hex');
  // The same link for the hour its expiry is rounded to.
  const signed = new LRUCache<string, string>({ max: KEPT_SIGNED_URLS });
  return {
    sign({ urlPath, fileId }, now) {
      // Rounded up to the hour so a file keeps one URL for a while (browser caches stay warm).
      const exp = Math.ceil((now.getTime() / 1000 + SIGNED_URL_LIFETIME_S) / HOUR_S) * HOUR_S;
      const key = `${urlPath}\n${fileId}\n${exp}`;
      let url = signed.get(key);
      if (url === undefined) {
        url = `${urlPath}?file=${fileId}&exp=${exp}&sig=${mac(urlPath, String(fileId), String(exp))}`;
        signed.set(key, url);
      }
      return url;
    },
    verify({ urlPath, fileId }, exp, sig, now) {
      if (!fileId || !/^[1-9]\d{0,9}$/.test(fileId)) return false;
      if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig)) return false;
      if (Number(exp) * 1000 < now.getTime()) return false;
      return timingSafeEqual(Buffer.from(mac(urlPath, fileId, exp), 'hex'), Buffer.from(sig, 'hex'));
    },
  };
}

/**
 * The secret for media links: SESSION_SECRET when set, else a random one created
 * once in DATA_DIR/secret.key (so links survive restarts and several processes agree).
 */
export function mediaSecret(config: Config): string {
  if (config.sessionSecret) return config.sessionSecret;
  const file = path.join(config.dataDir, 'secret.key');
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return fs.readFileSync(file, 'utf8').trim();
}
