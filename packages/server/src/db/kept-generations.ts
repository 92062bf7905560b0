import { createHash } from 'node:crypto';
import { getTableColumns, getTableName } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  authSessions,
  files,
  fileTags,
  fileTiers,
  fileTriggers,
  membershipTiers,
  playlistFiles,
  playlists,
  roles,
  series,
  seriesPlaylists,
  tags,
  triggers,
  userMemberships,
  userRoles,
  users,
} from './schema/index.ts';

/**
 * What the process keeps between requests, and which writes make it stale, declared once.
 *
 * Each generation counts changes to what one kind of kept data is read from: `files` (file lists,
 * tags, triggers, creators, may-play checks), `plays` (the play counts that file lists sorted by
 * them are in order of), `playlists` (playlist lists and training plans, which also read `files`),
 * `owners` (who owns files or hidden playlists, which decides whose lists are their own) and
 * `sessions` (session users kept by platform/session-cache.ts). The triggers
 * that raise them, in the writing transaction, are generated from the declarations below and
 * installed after the migrations (installGenerationTriggers), so a new column of a declared table
 * raises its generation unless it is named as not shown.
 */
export const GENERATIONS = ['files', 'plays', 'playlists', 'owners', 'sessions'] as const;
export type GenerationName = (typeof GENERATIONS)[number];
/** The generations library answers depend on. */
export type LibraryPart = Exclude<GenerationName, 'sessions'>;

type Write = 'insert' | 'update' | 'delete' | 'truncate';
const EVERY_WRITE: Write[] = ['insert', 'update', 'delete', 'truncate'];

interface Raise {
  generation: GenerationName;
  table: PgTable;
  /** The writes that raise it; all four when not given. */
  on?: Write[];
  /** Updates of these columns only raise it (every column when not given). */
  columns?: PgColumn[];
  /**
   * Raised row by row, not once per statement: by each updated row whose `columns` hold new values
   * (`changed`: updates that run often and mostly change nothing, a sign-in's timezone); by each
   * written row, logged in kept_changes with the raise (`logged`: its id and the row as it was, which
   * kept orders check, LOGGED_CHANGES); or by each row that meets a named condition over OLD and NEW.
   */
  perRow?: 'changed' | 'logged' | { name: string; condition: string };
}

/** How many raises of a logging generation kept_changes holds; older orders are computed again. */
export const LOGGED_CHANGES = 100;

const everyColumnBut = (table: PgTable, ...notShown: PgColumn[]) =>
  Object.values(getTableColumns(table)).filter((column) => !notShown.includes(column));

/** Every write of each table raises `generation`, once per statement. */
const everyWrite = (generation: GenerationName, ...tables: PgTable[]): Raise[] =>
  tables.map((table) => ({ generation, table }));

/** Rows of `table` gained or lost, or an update giving one of them another owner (`columns`). */
const ownership = (table: PgTable, columns: PgColumn[]): Raise[] => [
  { generation: 'owners', table, on: ['insert', 'delete', 'truncate'] },
  { generation: 'owners', table, on: ['update'], columns, perRow: 'changed' },
];

/** Every table and column a kept answer, total, order, row or session reads. */
export const RAISES: Raise[] = [
  // Play counts change with every counted listen: orders by them follow `plays`, kept rows read them
  // again after one. The waveform, loudness and peaks are read only by their own calls, never kept;
  // the audio's size only by the staff dashboard's storage total, fresh.
  {
    generation: 'files',
    table: files,
    columns: everyColumnBut(
      files,
      files.plays,
      files.waveform,
      files.loudness,
      files.peaksKey,
      files.audioSize,
    ),
  },
  { generation: 'plays', table: files, on: ['update'], columns: [files.plays] },
  ...everyWrite('files', fileTriggers, triggers, tags, fileTags, fileTiers, membershipTiers),
  { generation: 'files', table: users, on: ['update', 'delete', 'truncate'], columns: [users.username] },

  // A rating recounts its playlist's likes, dislikes and favourites: those may be as old as a kept
  // answer (LIBRARY_CACHE_SECONDS), as play counts are, and kept rows read them again. Rows are
  // logged: a creator's edit leaves the kept orders it cannot change (a search the playlist matched
  // neither before nor after).
  {
    generation: 'playlists',
    table: playlists,
    on: ['insert', 'update', 'delete'],
    columns: everyColumnBut(playlists, playlists.likes, playlists.dislikes, playlists.favorites),
    perRow: 'logged',
  },
  { generation: 'playlists', table: playlists, on: ['truncate'] },
  ...everyWrite('playlists', playlistFiles, series, seriesPlaylists),
  {
    generation: 'playlists',
    table: users,
    on: ['update', 'delete', 'truncate'],
    columns: [users.username, users.imageUrl],
  },

  // What a user owns that makes a list their own (platform/access.ts): uploads, authored files and
  // playlists not public. Not the other columns: an edit of a description changes no owner.
  ...ownership(files, [files.uploaderId, files.authorId]),
  ...ownership(playlists, [playlists.creatorId, playlists.isPublic]),

  // What the session lookup (live_session_user, platform/access.repo.ts) reads: a user's roles and
  // memberships, and every tier of the creators they hold a tier of.
  ...everyWrite('sessions', roles, userRoles, userMemberships, membershipTiers),
  // Not on insert: a new session's token is kept nowhere yet. Not on last_seen_at: each session's
  // hourly touch would drop every kept session; a kept session's idle end is judged in the process
  // from the last-seen time it was read with, which the app only moves forward.
  {
    generation: 'sessions',
    table: authSessions,
    on: ['update', 'delete', 'truncate'],
    columns: [
      authSessions.tokenHash,
      authSessions.userId,
      authSessions.expiresAt,
      authSessions.rotatePending,
    ],
  },
  // Moving last_seen_at back (by hand, never by the app) can end a kept session early.
  {
    generation: 'sessions',
    table: authSessions,
    on: ['update'],
    columns: [authSessions.lastSeenAt],
    perRow: { name: 'last_seen_back', condition: 'NEW."last_seen_at" < OLD."last_seen_at"' },
  },
  // Of users only what the lookup reads; a new account has no session yet.
  { generation: 'sessions', table: users, on: ['delete', 'truncate'] },
  {
    generation: 'sessions',
    table: users,
    on: ['update'],
    columns: [users.id, users.username, users.timezone, users.hideLockedFiles, users.suspendedAt],
    perRow: 'changed',
  },
];

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function triggerName({ perRow, table, generation }: Raise): string {
  const kind =
    typeof perRow === 'object'
      ? `_${perRow.name}`
      : { changed: '_rows', logged: '_logged', none: '' }[perRow ?? 'none'];
  return `${getTableName(table)}${kind}_bumps_${generation}_generation`;
}

function raiseTrigger(raise: Raise): string {
  const { perRow, columns = [] } = raise;
  const writes = (raise.on ?? EVERY_WRITE).map((write) =>
    write === 'update' && raise.columns
      ? `UPDATE OF ${columns.map((c) => quote(c.name)).join(', ')}`
      : write.toUpperCase(),
  );
  const values = (row: string) => `(${columns.map((c) => `${row}.${quote(c.name)}`).join(', ')})`;
  const when =
    perRow === 'changed'
      ? ` WHEN (${values('OLD')} IS DISTINCT FROM ${values('NEW')})`
      : typeof perRow === 'object'
        ? ` WHEN (${perRow.condition})`
        : '';
  const bump = perRow === 'logged' ? 'bump_and_log' : 'bump';
  return `CREATE OR REPLACE TRIGGER ${quote(triggerName(raise))} AFTER ${writes.join(' OR ')} ON ${quote(getTableName(raise.table))}
  FOR EACH ${perRow ? 'ROW' : 'STATEMENT'}${when} EXECUTE FUNCTION "${bump}_kept_generation"('${raise.generation}')`;
}

/** The names of every generated trigger, by table. */
export function generatedTriggerNames(): { table: string; name: string }[] {
  return RAISES.map((raise) => ({ table: getTableName(raise.table), name: triggerName(raise) }));
}

/** The statements that install the functions, the generation rows and every declared trigger. */
export function generationTriggersSql(): string {
  return [
    // Once per writing statement (or changed row), in its transaction.
    `CREATE OR REPLACE FUNCTION "bump_kept_generation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "kept_generations" SET "generation" = "generation" + 1 WHERE "name" = TG_ARGV[0];
  RETURN NULL;
END
$$`,
    // Once per written row: the raise it made, the row's id and its values before (none for an
    // insert); the log keeps the last LOGGED_CHANGES raises.
    `CREATE OR REPLACE FUNCTION "bump_and_log_kept_generation"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE raised int8;
BEGIN
  UPDATE "kept_generations" SET "generation" = "generation" + 1 WHERE "name" = TG_ARGV[0]
    RETURNING "generation" INTO raised;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "kept_changes" VALUES (TG_ARGV[0], raised, NEW."id", NULL);
  ELSE
    INSERT INTO "kept_changes" VALUES (TG_ARGV[0], raised, OLD."id", to_jsonb(OLD));
  END IF;
  DELETE FROM "kept_changes" WHERE "generation_name" = TG_ARGV[0] AND "generation" <= raised - ${LOGGED_CHANGES};
  RETURN NULL;
END
$$`,
    `INSERT INTO "kept_generations" ("name") VALUES ${GENERATIONS.map((g) => `('${g}')`).join(', ')}
  ON CONFLICT ("name") DO NOTHING`,
    ...RAISES.map(raiseTrigger),
  ].join(';\n');
}

/** Runs statements without parameters (several in one string). */
export type RunStatements = (statements: string) => Promise<unknown>;
/** Runs one query and answers its rows. */
export type QueryRows = (query: string) => Promise<Record<string, unknown>[]>;

/**
 * Installs the generated triggers unless the installed ones are of this very declaration (its
 * hash is the function's comment), and drops generated triggers no longer declared. One string of
 * statements, which PostgreSQL runs as one transaction; run after the migrations by db/client.ts.
 */
export async function installGenerationTriggers(run: RunStatements, query: QueryRows): Promise<void> {
  const statements = generationTriggersSql();
  const hash = createHash('sha256').update(statements).digest('hex');
  const [installed] = await query(
    `SELECT obj_description(p.oid, 'pg_proc') AS hash FROM pg_proc p WHERE p.proname = 'bump_kept_generation'`,
  );
  if (installed?.hash === hash) return;
  const declared = new Set(generatedTriggerNames().map((t) => `${t.table}.${t.name}`));
  const present = (await query(
    `SELECT c.relname AS "table", t.tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE NOT t.tgisinternal AND t.tgname LIKE '%\\_bumps\\_%generation'`,
  )) as { table: string; name: string }[];
  const stale = present.filter((t) => !declared.has(`${t.table}.${t.name}`));
  await run(
    [
      ...stale.map((t) => `DROP TRIGGER ${quote(t.name)} ON ${quote(t.table)}`),
      statements,
      `COMMENT ON FUNCTION "bump_kept_generation"() IS '${hash}'`,
    ].join(';\n'),
  );
}
