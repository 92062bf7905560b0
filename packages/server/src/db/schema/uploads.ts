import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/**
 * A chunked upload in progress (POST /api/files/upload). The bytes go to storage as a multipart
 * upload (platform/storage.ts) under `storageKey`; `storageUploadId` is the store's id of it.
 * Removed with its parts when completed and claimed by a file, or abandoned for 24 h.
 */
export const uploads = pgTable(
  'uploads',
  {
    /** The client's upload id (the spec's `uuid` field); also the new file's uuid. */
    uuid: uuid('uuid').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** As the client named it: shown back to the user, never used as a path. */
    fileName: text('file_name').notNull(),
    /** The spec's secure flag: true when the file will be locked to a tier. */
    secure: boolean('secure').notNull().default(false),
    totalChunks: integer('total_chunks').notNull(),
    /** The size the client announced, when it did (bytes). */
    declaredSize: bigint('declared_size', { mode: 'number' }),
    storageKey: text('storage_key').notNull(),
    storageUploadId: text('storage_upload_id').notNull(),
    /** 'receiving' → 'processing' → 'ready' (waiting for POST /api/files) or 'failed'. */
    state: text('state').notNull().default('receiving'),
    /** Why processing failed, shown to the uploader. */
    error: text('error'),
    /** Filled by processing: what the bytes are. */
    audioType: text('audio_type'),
    codec: text('codec'),
    /** Milliseconds. */
    duration: integer('duration'),
    size: bigint('size', { mode: 'number' }),
    /** About 1,000 peak levels (0-1) across the track. */
    waveform: real('waveform').array(),
    /** Integrated loudness, LUFS. */
    loudness: real('loudness'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('uploads_user_idx').on(t.userId), index('uploads_updated_idx').on(t.updatedAt)],
);

/** The chunks of an upload that storage holds, one row per chunk (index 0-based; part = index + 1). */
export const uploadChunks = pgTable(
  'upload_chunks',
  {
    uploadUuid: uuid('upload_uuid')
      .notNull()
      .references(() => uploads.uuid, { onDelete: 'cascade' }),
    chunkIndex: integer('chunk_index').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    etag: text('etag').notNull(),
  },
  (t) => [primaryKey({ columns: [t.uploadUuid, t.chunkIndex] })],
);
