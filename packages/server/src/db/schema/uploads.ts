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
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/**
 * A chunked upload in progress (POST /api/files/upload). The bytes go to storage as a multipart
 * upload (platform/storage.ts) under `storageKey`; `storageUploadId` is the store's id of it.
 * Removed with its parts when completed and claimed by a file, or 24 h after it started.
 */
export const uploads = pgTable(
  'uploads',
  {
    /**
     * The server's id of the upload (column `uuid`): the staging key, the processed audio's key and
     * the new file's uuid. Never taken from a client, so no client can name a stored object.
     */
    id: uuid('uuid').primaryKey().defaultRandom(),
    /** The client's handle (the spec's `uuid` field): unique per uploader, names nothing stored. */
    uuid: uuid('client_uuid').notNull(),
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
  (t) => [
    uniqueIndex('uploads_user_client_uuid_idx').on(t.userId, t.uuid),
    // The clean-up counts an upload's age from its start.
    index('uploads_created_idx').on(t.createdAt),
  ],
);

/** The chunks of an upload that storage holds, one row per chunk (index 0-based; part = index + 1). */
export const uploadChunks = pgTable(
  'upload_chunks',
  {
    /** The upload's server id (uploads.id). */
    uploadId: uuid('upload_uuid')
      .notNull()
      .references(() => uploads.id, { onDelete: 'cascade' }),
    chunkIndex: integer('chunk_index').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    etag: text('etag').notNull(),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.chunkIndex] })],
);
