import path from 'node:path';
import type { Config } from '../config.ts';
import { localStorage } from './local-storage.ts';
import { s3Storage } from './s3-storage.ts';
import type { Storage } from './storage-core.ts';

export { type ByteRange, isStorageKey, type Sending, type Storage } from './storage-core.ts';

/** Media in the S3 bucket when S3_BUCKET is set, else in the folder DATA_DIR/media. */
export function createStorage(config: Config): Storage {
  return config.s3 ? s3Storage(config.s3) : localStorage(path.join(config.dataDir, 'media'));
}
