import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const userRef = (name: string) =>
  integer(name)
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/**
 * Membership tiers that lock files. `id` is the provider's tier id (Patreon);
 * tiers of one creator compare by `rank` (1 the lowest). Filled by the memberships module.
 */
export const membershipTiers = pgTable('membership_tiers', {
  id: text('id').primaryKey(),
  /** The campaign (creator page) name; tiers with the same name belong to one creator. */
  creatorName: text('creator_name').notNull(),
  title: text('title').notNull(),
  rank: integer('rank').notNull(),
  /** The provider's campaign id and the tier's price, from a creator's tier import. */
  campaignId: text('campaign_id'),
  amountCents: integer('amount_cents'),
  creatorUserId: integer('creator_user_id').references(() => users.id, { onDelete: 'set null' }),
});

/** A user's membership in a tier; only active ones unlock files. */
export const userMemberships = pgTable(
  'user_memberships',
  {
    userId: userRef('user_id'),
    tierId: text('tier_id')
      .notNull()
      .references(() => membershipTiers.id, { onDelete: 'cascade' }),
    active: boolean('active').notNull().default(false),
    cancelled: boolean('cancelled').notNull().default(false),
    lastVerified: timestamp('last_verified', { withTimezone: true }),
    /** A cancelled patron's paid period ends here: the membership turns inactive then (decision 028). */
    entitledUntil: timestamp('entitled_until', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.tierId] }), index('user_memberships_tier_idx').on(t.tierId)],
);

/** Audio files (tracks). `file_type` is an id of FILE_TYPES in shared/domain/file-types.ts. */
export const files = pgTable(
  'files',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    fileType: integer('file_type').notNull(),
    trackNumber: integer('track_number'),
    releaseDate: timestamp('release_date', { withTimezone: true }).notNull().defaultNow(),
    isPublic: boolean('is_public').notNull().default(true),
    /** Incremented by the listening module. */
    plays: integer('plays').notNull().default(0),
    /** Milliseconds. */
    duration: integer('duration').notNull().default(0),
    /** Storage keys (see platform/storage.ts), e.g. 'audio/<uuid>.wav'. */
    audioKey: text('audio_key').notNull(),
    audioType: text('audio_type').notNull(),
    /**
     * Bytes of the stored audio (the staff dashboard's storage used); null until measured: set at
     * publishing from the upload, filled for older files by the library analysis.
     */
    audioSize: bigint('audio_size', { mode: 'number' }),
    scriptKey: text('script_key'),
    hapticsKey: text('haptics_key'),
    /**
     * Raised by every change of the haptics (a save from the cue editor, an uploaded cue file or
     * Funscript, a removal), so an editor saving over a change it has not seen gets a 409.
     */
    hapticsRevision: integer('haptics_revision').notNull().default(0),
    /**
     * The waveform at several resolutions (modules/files/file-peaks.ts, shared/domain/waveform-peaks.ts);
     * null until made: at upload, by the library analysis, or at the first request for them.
     */
    peaksKey: text('peaks_key'),
    /** About 1,000 peak levels (0-1) across the track; null until analysed. */
    waveform: real('waveform').array(),
    /** Integrated loudness in LUFS; null until analysed. */
    loudness: real('loudness'),
    warnings: text('warnings').array().notNull().default(sql`'{}'::text[]`),
    authorId: userRef('author_id'),
    uploaderId: userRef('uploader_id'),
    userUploaded: boolean('user_uploaded').notNull().default(false),
    createdAt: createdAt(),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`to_tsvector('english', name || ' ' || description)`,
    ),
    /**
     * Ids of every trigger linked in file_triggers (used or trained), sorted. Kept by database
     * triggers (migration 0001), never written by the app: a search tests `trigger_ids && ...`
     * per row and combines its GIN index with the text indexes, instead of hashing the links.
     */
    triggerIds: integer('trigger_ids').array().notNull().default(sql`'{}'::integer[]`),
  },
  // Sort indexes are ascending on purpose: scanned backwards they also serve `order by x desc, id desc`
  // (a DESC index is NULLS LAST, which plain `desc` ordering does not match).
  (t) => [
    uniqueIndex('files_uuid_idx').on(t.uuid),
    check('files_file_type_check', sql`${t.fileType} between 1 and 9`),
    index('files_search_idx').using('gin', t.searchVector),
    index('files_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('files_trigger_ids_idx').using('gin', t.triggerIds),
    index('files_release_idx').on(t.releaseDate, t.id),
    index('files_name_sort_idx').on(sql`lower(${t.name})`, t.id),
    index('files_duration_idx').on(t.duration, t.id),
    index('files_plays_idx').on(t.plays, t.id),
    index('files_type_idx').on(t.fileType, t.releaseDate, t.id),
    index('files_author_idx').on(t.authorId),
    index('files_uploader_idx').on(t.uploaderId),
    // The staff dashboard counts uploads per day (insights).
    index('files_created_idx').on(t.createdAt),
    index('files_haptics_idx').on(t.releaseDate, t.id).where(sql`${t.hapticsKey} is not null`),
    // A trigger page's files by id (`id = any(...)`), with what its visibility, filters and usual
    // orders read: an index-only scan instead of a heap fetch per linked file (29 → 10 ms for 929).
    index('files_listing_idx').on(t.id, t.isPublic, t.releaseDate, t.duration, t.fileType),
  ],
);

/** The membership tiers a file needs (any one of them, or a higher rank of the same creator). */
export const fileTiers = pgTable(
  'file_tiers',
  {
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    tierId: text('tier_id')
      .notNull()
      .references(() => membershipTiers.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.tierId] }), index('file_tiers_tier_idx').on(t.tierId)],
);

/**
 * Named phrases. Creator id 1 (the site owner) makes a trigger core; no creator marks the
 * site's vocabulary (reference data, core too: docs/decisions/011-trigger-vocabulary.md).
 */
export const triggers = pgTable(
  'triggers',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Vocabulary category; null for triggers users added. */
    category: text('category'),
    /** The weighting table: 0.2 to 1; the generator's preference (decision 011). */
    weight: real('weight').notNull().default(1),
    /** A request (decision 002): not listed, not usable, until staff approve it. */
    pending: boolean('pending').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('triggers_uuid_idx').on(t.uuid),
    uniqueIndex('triggers_name_lower_idx').on(sql`lower(${t.name})`),
    index('triggers_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('triggers_pending_idx').on(t.pending).where(sql`${t.pending}`),
    check('triggers_weight_check', sql`${t.weight} between 0.2 and 1`),
  ],
);

/** A file uses a trigger, or trains it when `trains` is set. */
export const fileTriggers = pgTable(
  'file_triggers',
  {
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    triggerId: integer('trigger_id')
      .notNull()
      .references(() => triggers.id, { onDelete: 'cascade' }),
    trains: boolean('trains').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.fileId, t.triggerId] }),
    // file_id included: trigger pages and searches read the linked files from the index alone.
    index('file_triggers_trigger_idx').on(t.triggerId, t.trains, t.fileId),
  ],
);

/** Triggers a user has trained (training_amount 0) or is training (1). */
export const userTriggers = pgTable(
  'user_triggers',
  {
    userId: userRef('user_id'),
    triggerId: integer('trigger_id')
      .notNull()
      .references(() => triggers.id, { onDelete: 'cascade' }),
    trainingAmount: integer('training_amount').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.triggerId] })],
);

export const tags = pgTable('tags', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
});

export const fileTags = pgTable(
  'file_tags',
  {
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.tagId] }), index('file_tags_tag_idx').on(t.tagId)],
);

/** Playlists. likes/dislikes/favorites count playlist_ratings rows (kept in the same transaction). */
export const playlists = pgTable(
  'playlists',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    expLevel: integer('exp_level').notNull(),
    isPublic: boolean('is_public').notNull().default(false),
    isCore: boolean('is_core').notNull().default(false),
    creatorId: userRef('creator_id'),
    dateCreated: timestamp('date_created', { withTimezone: true }).notNull().defaultNow(),
    likes: integer('likes').notNull().default(0),
    dislikes: integer('dislikes').notNull().default(0),
    favorites: integer('favorites').notNull().default(0),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`to_tsvector('english', name || ' ' || description)`,
    ),
    /*
     * The summary of the entries whose file is public, what the shared audience sees
     * (access.listViewer): kept by database triggers (migration 0017), never written by the app,
     * so simple lists read it with the page instead of aggregating every entry per request.
     * Columns here rather than a table of their own: the page query reads them without a join,
     * and the kept-answer generation of playlists (db/kept-generations.ts) covers them as it
     * covers every other column.
     */
    /** File ids of the public entries, in playlist order (their count is the file count). */
    publicFileIds: integer('public_file_ids').array().notNull().default(sql`'{}'::integer[]`),
    /** Milliseconds, of the enabled public entries. */
    publicTotalDuration: bigint('public_total_duration', { mode: 'number' }).notNull().default(0),
    /** Public entries whose file has haptics. */
    publicWithHaptics: integer('public_with_haptics').notNull().default(0),
    /** Whether a public entry's file needs a membership tier. */
    publicHasTiers: boolean('public_has_tiers').notNull().default(false),
    /** The public entries' distinct warnings, in the order first met. */
    publicWarnings: text('public_warnings').array().notNull().default(sql`'{}'::text[]`),
    /**
     * The public entries' distinct trigger ids, with (at the same index) the 1-based number of the
     * first public entry that has each: a list shows them by that entry, then by name.
     */
    publicTriggerIds: integer('public_trigger_ids').array().notNull().default(sql`'{}'::integer[]`),
    publicTriggerFirstEntries: integer('public_trigger_first_entries')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
  },
  (t) => [
    uniqueIndex('playlists_uuid_idx').on(t.uuid),
    check('playlists_exp_level_check', sql`${t.expLevel} between 1 and 4`),
    index('playlists_search_idx').using('gin', t.searchVector),
    index('playlists_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('playlists_created_idx').on(t.dateCreated, t.id),
    index('playlists_public_created_idx').on(t.dateCreated, t.id).where(sql`${t.isPublic}`),
    index('playlists_creator_idx').on(t.creatorId, t.dateCreated, t.id),
    index('playlists_likes_idx').on(t.likes, t.id),
    index('playlists_favorites_idx').on(t.favorites, t.id),
    index('playlists_name_sort_idx').on(sql`lower(${t.name})`, t.id),
    index('playlists_level_idx').on(t.expLevel, t.id),
    // The home page's core playlists by level: a few hundred rows, counted without reading the rest.
    index('playlists_core_level_idx').on(t.expLevel, t.id).where(sql`${t.isCore}`),
  ],
);

/** Ordered entries of a playlist; a file may appear more than once. */
export const playlistFiles = pgTable(
  'playlist_files',
  {
    playlistId: integer('playlist_id')
      .notNull()
      .references(() => playlists.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    disabled: boolean('disabled').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.playlistId, t.position] }), index('playlist_files_file_idx').on(t.fileId)],
);

/** A user's like or dislike (never both) and favourite of a playlist. */
export const playlistRatings = pgTable(
  'playlist_ratings',
  {
    userId: userRef('user_id'),
    playlistId: integer('playlist_id')
      .notNull()
      .references(() => playlists.id, { onDelete: 'cascade' }),
    liked: boolean('liked').notNull().default(false),
    disliked: boolean('disliked').notNull().default(false),
    favorite: boolean('favorite').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.playlistId] }),
    index('playlist_ratings_playlist_idx').on(t.playlistId),
  ],
);

/** Training plans: an ordered list of playlists, one per day. */
export const series = pgTable(
  'series',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    creatorId: userRef('creator_id'),
    dateCreated: timestamp('date_created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('series_uuid_idx').on(t.uuid)],
);

export const seriesPlaylists = pgTable(
  'series_playlists',
  {
    seriesId: integer('series_id')
      .notNull()
      .references(() => series.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    playlistId: integer('playlist_id')
      .notNull()
      .references(() => playlists.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.seriesId, t.position] }),
    index('series_playlists_playlist_idx').on(t.playlistId),
  ],
);

/** A user's progress in a training plan: days before `playlist_index` (1-based) are done. */
export const userSeries = pgTable(
  'user_series',
  {
    userId: userRef('user_id'),
    seriesId: integer('series_id')
      .notNull()
      .references(() => series.id, { onDelete: 'cascade' }),
    playlistIndex: integer('playlist_index').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.userId, t.seriesId] })],
);
