import { randomBytes } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import type { Db } from '../../db/client.ts';
import { ACCOUNT_LIMITS } from '../../platform/account-limits.ts';
import { BadRequest } from '../../platform/errors.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import type { Storage } from '../../platform/storage.ts';
import { createAvatarRepo } from './avatar.repo.ts';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
/** The two sizes kept of every avatar, in pixels (square). */
const SIZES = { small: 64, large: 256 } as const;
/** Larger images are refused before decoding (a small file can hold a huge picture). */
const MAX_INPUT_PIXELS = 40_000_000;

/** Avatars are public: they are served from /avatars/<name>, the storage key `avatars/<name>`. */
export const AVATAR_URL_PREFIX = '/avatars/';
/** `<userId>-<random>-<size>.webp`: nothing else in `avatars/` is ever served. */
export const AVATAR_NAME = /^\d+-[0-9a-f]{16}-(small|large)\.webp$/;

/**
 * Re-encodes to a square WebP of `size` pixels; sharp writes no metadata (EXIF, GPS, ICC) unless asked.
 * sharp (libvips, about 20 MB resident) loads with the first avatar, not at start (decision 027).
 */
async function encode(bytes: Buffer, size: number): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
    .rotate()
    .resize(size, size, { fit: 'cover' })
    .webp({ quality: 85 })
    .toBuffer();
}

export type AvatarService = ReturnType<typeof createAvatarService>;

export function createAvatarService({
  db,
  limiter,
  storage,
}: {
  db: Db;
  limiter: RateLimiter;
  storage: Storage;
}) {
  const repo = createAvatarRepo(db);

  /** Both sizes of the avatar at `url`, when it is one of ours. */
  async function removeStored(url: string | null) {
    const name = url?.startsWith(AVATAR_URL_PREFIX) ? url.slice(AVATAR_URL_PREFIX.length) : '';
    if (!AVATAR_NAME.test(name)) return;
    const base = name.replace(/-(small|large)\.webp$/, '');
    await Promise.all(
      Object.keys(SIZES).map((s) => storage.delete(`avatars/${base}-${s}.webp`).catch(() => undefined)),
    );
  }

  return {
    /** Checks, re-encodes and stores the image; the user's old avatar is deleted. Answers the large one's URL. */
    async upload(userId: number, bytes: Buffer): Promise<string> {
      await limiter.consume(ACCOUNT_LIMITS.avatarUploads, String(userId));
      const type = await fileTypeFromBuffer(bytes);
      if (!type || !IMAGE_TYPES.has(type.mime)) {
        throw new BadRequest('file', 'must be a PNG, JPEG, WebP or GIF image.');
      }
      let small: Buffer;
      let large: Buffer;
      try {
        [small, large] = await Promise.all([encode(bytes, SIZES.small), encode(bytes, SIZES.large)]);
      } catch {
        throw new BadRequest('file', 'could not be read as an image.');
      }
      const base = `${userId}-${randomBytes(8).toString('hex')}`;
      await storage.put(`avatars/${base}-small.webp`, small);
      await storage.put(`avatars/${base}-large.webp`, large);
      const url = `${AVATAR_URL_PREFIX}${base}-large.webp`;
      await removeStored(await repo.replaceImage(userId, url));
      return url;
    },

    /** Takes the user's picture away (a moderator removing a reported profile's content). */
    async clear(userId: number): Promise<void> {
      await removeStored(await repo.replaceImage(userId, null));
    },

    /** Deletes the stored images of an avatar URL (an account being deleted); others are left alone. */
    removeStored,

    /** The stored avatar image, or null when there is no such one. */
    async open(name: string) {
      if (!AVATAR_NAME.test(name)) return null;
      const key = `avatars/${name}`;
      const stored = await storage.stat(key);
      return stored ? { stored, body: () => storage.createReadStream(key) } : null;
    },
  };
}
