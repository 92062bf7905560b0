import { createHash } from 'node:crypto';
import { and, asc, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { LOGGED_CHANGES } from '../../db/kept-generations.ts';
import type { Generations } from '../../db/library-generation.ts';
import { type KnownTotal, pageTotal, recomputedOrder } from '../../db/row-count.ts';
import {
  files,
  fileTiers,
  fileTriggers,
  keptChanges,
  playlistFiles,
  playlistRatings,
  playlists,
  seriesPlaylists,
  triggers,
  users,
} from '../../db/schema/index.ts';
import { escapeLike } from '../../db/sql-helpers.ts';
import { type Viewer, visibleFilesFor, visiblePlaylistsFor } from '../../platform/access.repo.ts';
import type { KeptOrder, ReadCache } from '../../platform/read-cache.ts';

/** Up to this many matches of a search, its page is read from the matches sorted, not by walking a sort index. */
const FEW_MATCHES = 1000;

export const PLAYLIST_SORT_COLUMNS = {
  datecreated: playlists.dateCreated,
  likes: playlists.likes,
  favorites: playlists.favorites,
  name: sql`lower(${playlists.name})`,
  explevel: playlists.expLevel,
} as const;
export type PlaylistSort = { key: keyof typeof PLAYLIST_SORT_COLUMNS; direction: 'asc' | 'desc' };

export interface PlaylistFilter {
  ids?: number[];
  uuid?: string;
  creatorIds?: number[];
  core?: boolean;
  /** true: only days of a training plan; false: none of them. */
  inSeries?: boolean;
  /** true: made by the site owner; false: by anyone else. */
  officialCreatorId?: { id: number; equal: boolean };
  isPublic?: boolean;
  favoritedBy?: number;
  likedBy?: number;
  searchQuery?: string;
  /** Playlists holding every one of these files. */
  includeFileIds?: number[];
  expLevels?: number[];
}

/** A playlist's own columns as `playlistColumns` selects them, with its creator's name. */
export type PlaylistRow = Pick<
  typeof playlists.$inferSelect,
  keyof typeof playlistColumns & keyof typeof playlists.$inferSelect
> & {
  creatorUsername: string;
};

/** A playlist's stored fields as it is created (its id and uuid are the database's; its public summary the triggers'). */
export type NewPlaylist = Omit<typeof playlists.$inferInsert, 'id' | 'uuid' | keyof PublicSummary>;

export type PlaylistEntry = { playlistId: number; position: number; fileId: number; disabled: boolean };

/** What a playlist's totals need of an entry the viewer may see. */
export type ShownEntry = {
  fileId: number;
  disabled: boolean;
  duration: number;
  hasHaptics: boolean;
  hasTiers: boolean;
  warnings: string[];
  /** The file's triggers, in no order (details and order from triggersByIds). */
  triggerIds: number[];
};

export type TriggerRef = { id: number; uuid: string; name: string };

/** An array column read as JSON: parsing PostgreSQL's array text took a tenth of a list page's server time. */
const asJson = <T>(column: AnyPgColumn) => sql<T[]>`array_to_json(${column})`;

/** The stored summary of a playlist's public entries (playlists.public_*, migration 0017). */
const publicSummaryColumns = {
  publicFileIds: asJson<number>(playlists.publicFileIds),
  publicTotalDuration: playlists.publicTotalDuration,
  publicWithHaptics: playlists.publicWithHaptics,
  publicHasTiers: playlists.publicHasTiers,
  publicWarnings: asJson<string>(playlists.publicWarnings),
  publicTriggerIds: asJson<number>(playlists.publicTriggerIds),
  publicTriggerFirstEntries: asJson<number>(playlists.publicTriggerFirstEntries),
};
export type PublicSummary = Pick<typeof playlists.$inferSelect, keyof typeof publicSummaryColumns>;

/** A playlist of a list page: its row with the stored summary of its public entries. */
export type ListedPlaylistRow = PlaylistRow & PublicSummary;

/** A playlist's own columns that answers show. */
const ownColumns = {
  id: playlists.id,
  uuid: playlists.uuid,
  name: playlists.name,
  description: playlists.description,
  expLevel: playlists.expLevel,
  isPublic: playlists.isPublic,
  isCore: playlists.isCore,
  creatorId: playlists.creatorId,
  dateCreated: playlists.dateCreated,
  likes: playlists.likes,
  dislikes: playlists.dislikes,
  favorites: playlists.favorites,
};

const playlistColumns = { ...ownColumns, creatorUsername: users.username };

function ratedBy(
  userId: number,
  column: typeof playlistRatings.favorite | typeof playlistRatings.liked,
): SQL {
  return sql`exists (select 1 from ${playlistRatings} where ${playlistRatings.playlistId} = ${playlists.id}
    and ${playlistRatings.userId} = ${userId} and ${column})`;
}

function matchesSearch(query: string): SQL {
  const pattern = `%${escapeLike(query)}%`;
  return sql`(${playlists.searchVector} @@ websearch_to_tsquery('english', ${query}) or ${playlists.name} ilike ${pattern})`;
}

function whereOf(filter: PlaylistFilter, viewer: Viewer): SQL | undefined {
  return and(visiblePlaylistsFor(viewer), matchesFilter(filter));
}

/** What the filter asks, whoever looks. */
function matchesFilter(filter: PlaylistFilter): SQL | undefined {
  const inSeries = sql`exists (select 1 from ${seriesPlaylists} where ${seriesPlaylists.playlistId} = ${playlists.id})`;
  return and(
    filter.ids ? inArray(playlists.id, filter.ids) : undefined,
    filter.uuid ? eq(playlists.uuid, filter.uuid) : undefined,
    filter.creatorIds ? inArray(playlists.creatorId, filter.creatorIds) : undefined,
    filter.core !== undefined ? eq(playlists.isCore, filter.core) : undefined,
    filter.inSeries === undefined ? undefined : filter.inSeries ? inSeries : sql`not ${inSeries}`,
    filter.officialCreatorId
      ? filter.officialCreatorId.equal
        ? eq(playlists.creatorId, filter.officialCreatorId.id)
        : sql`${playlists.creatorId} <> ${filter.officialCreatorId.id}`
      : undefined,
    filter.isPublic !== undefined ? eq(playlists.isPublic, filter.isPublic) : undefined,
    filter.favoritedBy !== undefined ? ratedBy(filter.favoritedBy, playlistRatings.favorite) : undefined,
    filter.likedBy !== undefined ? ratedBy(filter.likedBy, playlistRatings.liked) : undefined,
    filter.searchQuery ? matchesSearch(filter.searchQuery) : undefined,
    ...(filter.includeFileIds ?? []).map(
      (
        fileId,
      ) => sql`exists (select 1 from ${playlistFiles} where ${playlistFiles.playlistId} = ${playlists.id}
        and ${playlistFiles.fileId} = ${fileId})`,
    ),
    filter.expLevels ? inArray(playlists.expLevel, filter.expLevels) : undefined,
  );
}

/**
 * What names a list's kept order: `where` is made of the filter and what visiblePlaylistsFor reads
 * of the viewer, and naming it so costs less than writing out a statement's text.
 */
function orderKey(filter: PlaylistFilter, viewer: Viewer, sort: PlaylistSort): string {
  return `playlists ${JSON.stringify([filter, viewer.id, viewer.readsAllFiles])} ${sort.key} ${sort.direction}`;
}

/**
 * The key of a list's prepared page statement: the shared audience's lists whose filter holds no free
 * value (no search, ids, levels or a user's ratings), a few dozen shapes in all; null for other lists.
 */
function preparedShape(
  filter: PlaylistFilter,
  viewer: Viewer,
  sort: PlaylistSort,
  statement: { keptTotal: boolean; idsOnly: boolean },
): string | null {
  if (viewer.id !== null || viewer.readsAllFiles) return null;
  const { core, inSeries, officialCreatorId, isPublic, ...free } = filter;
  if (Object.values(free).some((value) => value !== undefined)) return null;
  return JSON.stringify([core, inSeries, officialCreatorId, isPublic, sort, statement]);
}

/**
 * The first pages of a list sorted by what the playlists generation follows (not likes or
 * favourites), up to this many rows (four pages of 12), are slices of its kept order
 * (ctx.readCache.orders): a search's matches are read once per change of the playlists.
 */
export const KEPT_ORDER_ROWS = 48;
const KEPT_ORDER_PAGE = { limit: KEPT_ORDER_ROWS, offset: 0 };

/** Sorts by ratings: those change without a new playlists generation (db/kept-generations.ts). */
const RATING_SORTS: ReadonlySet<PlaylistSort['key']> = new Set(['likes', 'favorites']);
/** The order that counts a list's total, which its other orders, later pages and lists by ratings take. */
const NEWEST_FIRST: PlaylistSort = { key: 'datecreated', direction: 'desc' };

/** Playlist lists read the playlists part of the library: which match depends on playlists, entries and plans. */
const PLAYLISTS_READ = ['playlists'] as const;

/** `kept`: the app's kept orders and rows (ctx.readCache). */
export function createPlaylistsRepo(db: Db, kept: Pick<ReadCache, 'orders' | 'rows'>) {
  const { orders, rows: keptRows } = kept;
  // A fixed statement, prepared once per connection.
  const triggersByIds = db
    .select({ id: triggers.id, uuid: triggers.uuid, name: triggers.name })
    .from(triggers)
    .where(sql`${triggers.id} = any(${sql.placeholder('ids')})`)
    .orderBy(asc(triggers.name))
    .prepare('playlist_triggers_by_name');
  // Built once per shape (preparedShape) and prepared on each connection, named by the shape (one
  // shape's text is the same in every repo): building the statement was a sixth of the server's time
  // for a computed playlists page.
  const preparedPages = new Map<string, { execute(values: Record<string, unknown>): Promise<unknown[]> }>();
  const select = () =>
    db.select(playlistColumns).from(playlists).innerJoin(users, eq(users.id, playlists.creatorId));
  // The stored public summary rides along: a few arrays, read only by the shared audience's lists.
  const listedColumns = { ...playlistColumns, ...publicSummaryColumns };
  const listedByIds = db
    .select(listedColumns)
    .from(playlists)
    .innerJoin(users, eq(users.id, playlists.creatorId))
    .where(sql`${playlists.id} = any(${sql.placeholder('ids')})`)
    .prepare('listed_playlists_by_ids');
  /** Rating counts by id: they change without a new generation. */
  const countsByIds = db
    .select({
      id: playlists.id,
      likes: playlists.likes,
      dislikes: playlists.dislikes,
      favorites: playlists.favorites,
    })
    .from(playlists)
    .where(sql`${playlists.id} = any(${sql.placeholder('ids')})`)
    .prepare('playlist_counts_by_ids');

  /**
   * A page of a list and its total, computed: the rows in full, or (`idsOnly`) their ids alone, for
   * a kept order whose pages read their rows apart. `known`: what is known of the total beforehand.
   */
  async function computedPage(
    filter: PlaylistFilter,
    viewer: Viewer,
    sort: PlaylistSort,
    page: { limit: number; offset: number },
    { idsOnly, known }: { idsOnly: boolean; known?: KnownTotal },
  ) {
    const where = whereOf(filter, viewer);
    const dir = sort.direction === 'asc' ? asc : desc;
    // A total known, or the count up to a limit riding along as a column: one round trip.
    const keptTotal = known?.current ? known.total : undefined;
    const totalItems = pageTotal(db, playlists, where, keptTotal);
    const sortKey = PLAYLIST_SORT_COLUMNS[sort.key];
    // A search matching few playlists (or not known to match many) reads its matches once, for
    // the page and the count both: walking a sort index testing each row, and counting the
    // matches apart, cost 10-25 ms for a word of 800 matches, which a creator's edit anywhere
    // made count again.
    const matchesFirst =
      filter.searchQuery !== undefined && (known === undefined || known.total <= FEW_MATCHES);
    const matches = db.$with('matches').as(
      db
        .select({ id: playlists.id, key: sql`${sortKey}`.as('key') })
        .from(playlists)
        .where(where),
    );
    const direction = sql.raw(sort.direction === 'asc' ? 'asc' : 'desc');
    const pageOfMatches = sql`${playlists.id} in (select matches.id from matches
        order by matches.key ${direction}, matches.id ${direction} limit ${page.limit} offset ${page.offset})`;
    const columns = idsOnly ? { id: playlists.id } : listedColumns;
    const shape = preparedShape(filter, viewer, sort, { keptTotal: keptTotal !== undefined, idsOnly });
    if (shape !== null && !matchesFirst) {
      let prepared = preparedPages.get(shape);
      if (!prepared) {
        prepared = db
          .select({
            ...columns,
            total:
              keptTotal === undefined ? totalItems.column : sql<number>`${sql.placeholder('total')}::int`,
          })
          .from(playlists)
          .innerJoin(users, eq(users.id, playlists.creatorId))
          .where(where)
          .orderBy(dir(sortKey), dir(playlists.id))
          .limit(sql.placeholder('limit'))
          .offset(sql.placeholder('offset'))
          .prepare(`playlists_page_${createHash('sha1').update(shape).digest('hex').slice(0, 16)}`);
        preparedPages.set(shape, prepared);
      }
      const rows = (await prepared.execute({
        total: keptTotal ?? 0,
        limit: page.limit,
        offset: page.offset,
      })) as (ListedPlaylistRow & { total: number })[];
      return { rows: rows as ListedPlaylistRow[], total: await totalItems.of(rows[0]) };
    }
    const rows = matchesFirst
      ? await db
          .with(matches)
          .select({
            ...columns,
            total:
              keptTotal === undefined ? sql<number>`(select count(*)::int from matches)` : totalItems.column,
          })
          .from(playlists)
          .innerJoin(users, eq(users.id, playlists.creatorId))
          .where(pageOfMatches)
          .orderBy(dir(sortKey), dir(playlists.id))
      : await db
          .select({ ...columns, total: totalItems.column })
          .from(playlists)
          .innerJoin(users, eq(users.id, playlists.creatorId))
          .where(where)
          .orderBy(dir(sortKey), dir(playlists.id))
          .limit(page.limit)
          .offset(page.offset);
    // The matches' count is whole: no count again when it reaches the limit.
    return {
      rows: rows as ListedPlaylistRow[],
      total: await totalItems.of(rows[0], { exact: matchesFirst }),
    };
  }

  /**
   * Whether the playlists changed between two generations (the rows kept_changes logged) left the
   * order of a list of `where` by `sort` alone: every version of each changed row since then (as
   * logged before each change, and as it is now) matches alike, and those that match sort alike.
   * Every version, not the first and the last: the order may have been read after a change that a
   * later one undid. Not when the log lacks a raise in between (older than LOGGED_CHANGES, or made
   * by entries, plans or names).
   */
  async function untouched(
    filter: PlaylistFilter,
    viewer: Viewer,
    sort: PlaylistSort,
    kept: Generations,
    now: Generations,
  ): Promise<boolean> {
    const raises = now.playlists - kept.playlists;
    if (raises <= 0 || raises > LOGGED_CHANGES) return false;
    const where = whereOf(filter, viewer) ?? sql`true`;
    const state = sql`coalesce(${where}, false) as matches, ${PLAYLIST_SORT_COLUMNS[sort.key]} as key`;
    const changes = sql`from ${keptChanges} where ${keptChanges.generationName} = 'playlists'
      and ${keptChanges.generation} > ${kept.playlists} and ${keptChanges.generation} <= ${now.playlists}`;
    const [row] = await db
      .select({
        logged: sql<number>`(select count(distinct ${keptChanges.generation})::int ${changes})`,
        touched: sql<boolean>`exists (select 1 from (
            select changed.id, was.matches, was.key
              from (select ${keptChanges.rowId} as id, ${keptChanges.before} as before ${changes}) as changed
              cross join lateral (select ${state} from jsonb_populate_record(null::${playlists}, changed.before) as ${playlists}) as was
            union all
            select changed.id, coalesce(is_now.matches, false), is_now.key
              from (select distinct ${keptChanges.rowId} as id ${changes}) as changed
              left join lateral (select ${state} from ${playlists} where ${playlists.id} = changed.id) as is_now on true
          ) as versions
          group by id having count(distinct (matches, case when matches then key end)) > 1)`,
      })
      .from(sql`(select) as one_row`);
    return row.logged === raises && !row.touched;
  }

  /** How a list's kept order is obtained: read from the playlists, kept on through changes that leave it alone. */
  const orderOptions = (filter: PlaylistFilter, viewer: Viewer, sort: PlaylistSort) => ({
    reads: PLAYLISTS_READ,
    unchangedSince: (kept: Generations, now: Generations) => untouched(filter, viewer, sort, kept, now),
  });

  /**
   * The first KEPT_ORDER_ROWS of a list, computed again only when a change of the playlists touches
   * it: the shared audience's (viewer id null) serve every viewer of public playlists alone.
   */
  function keptOrder(filter: PlaylistFilter, viewer: Viewer, sort: PlaylistSort): Promise<KeptOrder> {
    const firstRows = async (known: KnownTotal | undefined) => {
      const first = await computedPage(filter, viewer, sort, KEPT_ORDER_PAGE, { idsOnly: true, known });
      return { ids: first.rows.map((row) => row.id), total: first.total };
    };
    // The order newest first counts the total; the others take it from that one.
    return orders.obtain(orderKey(filter, viewer, sort), orderOptions(filter, viewer, sort), (was, now) =>
      recomputedOrder(
        was,
        now,
        firstRows,
        sort.key === NEWEST_FIRST.key && sort.direction === NEWEST_FIRST.direction
          ? undefined
          : () => keptOrder(filter, viewer, NEWEST_FIRST),
      ),
    );
  }

  /**
   * The same for a viewer who also sees playlists of their own that are not public: the shared
   * audience's order with their own merged in (the first rows of the union are among the first rows
   * of each part), one small statement instead of the list computed for them alone.
   */
  function ownerOrder(filter: PlaylistFilter, ownerId: number, viewer: Viewer, sort: PlaylistSort) {
    // What the viewer sees is the shared audience's and their own: a change that touches neither
    // leaves both orders.
    return orders.obtain(orderKey(filter, viewer, sort), orderOptions(filter, viewer, sort), async () => {
      const shared = await keptOrder(filter, { ...viewer, id: null }, sort);
      const ownHidden = and(
        eq(playlists.creatorId, ownerId),
        eq(playlists.isPublic, false),
        matchesFilter(filter),
      );
      const dir = sort.direction === 'asc' ? asc : desc;
      const rows = await db
        .select({
          id: playlists.id,
          ownHidden: sql<number>`(select count(*)::int from ${playlists} where ${ownHidden})`,
        })
        .from(playlists)
        .where(or(shared.ids.length > 0 ? inArray(playlists.id, [...shared.ids]) : undefined, ownHidden))
        .orderBy(dir(PLAYLIST_SORT_COLUMNS[sort.key]), dir(playlists.id))
        .limit(KEPT_ORDER_ROWS);
      const total = shared.total + (rows[0]?.ownHidden ?? 0);
      return { ids: rows.map((row) => row.id), total, countedAt: shared.countedAt };
    });
  }

  return {
    async list(
      filter: PlaylistFilter,
      viewer: Viewer,
      sort: PlaylistSort,
      page: { limit: number; offset: number },
    ): Promise<{ rows: ListedPlaylistRow[]; total: number }> {
      // A filter on the viewer's own ratings is computed each time (no generation follows them).
      if (filter.favoritedBy !== undefined || filter.likedBy !== undefined)
        return computedPage(filter, viewer, sort, page, { idsOnly: false });
      // Readers of all playlists see no shared list: theirs is computed for them.
      const orderOf = (sort: PlaylistSort) =>
        viewer.id !== null && !viewer.readsAllFiles
          ? ownerOrder(filter, viewer.id, viewer, sort)
          : keptOrder(filter, viewer, sort);
      if (RATING_SORTS.has(sort.key) || page.offset + page.limit > KEPT_ORDER_ROWS) {
        const { total } = await orderOf(NEWEST_FIRST);
        return computedPage(filter, viewer, sort, page, { idsOnly: false, known: { total, current: true } });
      }
      const { ids, total } = await orderOf(sort);
      const pageIds = ids.slice(page.offset, page.offset + page.limit);
      if (pageIds.length === 0) return { rows: [], total };
      // The page's rows, kept until a logged change touches them; their rating counts are read again
      // once as old as a kept answer may be (at once when answers are not kept).
      const byId = await keptRows.playlists.obtain(pageIds, {
        rows: async (ids) => (await listedByIds.execute({ ids })) as ListedPlaylistRow[],
        counts: (ids) => countsByIds.execute({ ids }),
      });
      return { rows: pageIds.flatMap((id) => byId.get(id) ?? []), total };
    },

    /** Visible playlists by id, in the order of `ids`. */
    async findVisibleByIds(ids: number[], viewer: Viewer): Promise<PlaylistRow[]> {
      if (ids.length === 0) return [];
      const rows = (await select().where(
        and(inArray(playlists.id, ids), visiblePlaylistsFor(viewer)),
      )) as PlaylistRow[];
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    async entries(playlistIds: number[]): Promise<PlaylistEntry[]> {
      if (playlistIds.length === 0) return [];
      return db
        .select({
          playlistId: playlistFiles.playlistId,
          position: playlistFiles.position,
          fileId: playlistFiles.fileId,
          disabled: playlistFiles.disabled,
        })
        .from(playlistFiles)
        .where(inArray(playlistFiles.playlistId, playlistIds))
        .orderBy(asc(playlistFiles.playlistId), asc(playlistFiles.position));
    },

    /**
     * The entries of these playlists that the viewer may see, in order, with just what the totals
     * need: lists ask for `simple` playlists, and loading, signing and presenting every file of
     * every playlist only to count them made those lists slow. One row per playlist, its entries
     * as JSON (reading 120 rows of arrays cost the server more than the query did).
     */
    async shownEntries(playlistIds: number[], viewer: Viewer): Promise<Map<number, ShownEntry[]>> {
      if (playlistIds.length === 0) return new Map();
      const rows = await db
        .select({
          playlistId: playlistFiles.playlistId,
          entries: sql<ShownEntry[]>`json_agg(json_build_object(
            'fileId', ${files.id},
            'disabled', ${playlistFiles.disabled},
            'duration', ${files.duration},
            'hasHaptics', ${files.hapticsKey} is not null,
            'hasTiers', coalesce((select true from ${fileTiers} where ${fileTiers.fileId} = ${files.id} limit 1), false),
            'warnings', ${files.warnings},
            'triggerIds', array(select ${fileTriggers.triggerId} from ${fileTriggers} where ${fileTriggers.fileId} = ${files.id})
          ) order by ${playlistFiles.position})`,
        })
        .from(playlistFiles)
        .innerJoin(files, eq(files.id, playlistFiles.fileId))
        .where(and(inArray(playlistFiles.playlistId, playlistIds), visibleFilesFor(viewer)))
        .groupBy(playlistFiles.playlistId);
      return new Map(rows.map((row) => [row.playlistId, row.entries]));
    },

    /** Every trigger, ordered by name (a few hundred short rows). */
    async allTriggers(): Promise<TriggerRef[]> {
      return db
        .select({ id: triggers.id, uuid: triggers.uuid, name: triggers.name })
        .from(triggers)
        .orderBy(asc(triggers.name));
    },

    /** Triggers by id, ordered by name. */
    async triggersByIds(ids: number[]): Promise<TriggerRef[]> {
      if (ids.length === 0) return [];
      return triggersByIds.execute({ ids });
    },

    async insert(values: NewPlaylist) {
      const [row] = await db
        .insert(playlists)
        .values(values)
        .returning({ id: playlists.id, uuid: playlists.uuid });
      return row;
    },

    /** Changes the playlist's own fields and answers its row as stored (none when no field is given). */
    async updateFields(
      id: number,
      fields: Partial<NewPlaylist>,
    ): Promise<Omit<PlaylistRow, 'creatorUsername'> | undefined> {
      if (Object.keys(fields).length === 0) return undefined;
      const [row] = await db.update(playlists).set(fields).where(eq(playlists.id, id)).returning(ownColumns);
      return row;
    },

    /** Replaces the whole ordered list of entries. */
    async replaceEntries(playlistId: number, entries: { fileId: number; disabled: boolean }[]) {
      await db.delete(playlistFiles).where(eq(playlistFiles.playlistId, playlistId));
      if (entries.length === 0) return;
      await db
        .insert(playlistFiles)
        .values(
          entries.map((e, i) => ({ playlistId, position: i + 1, fileId: e.fileId, disabled: e.disabled })),
        );
    },

    async delete(id: number) {
      await db.delete(playlists).where(eq(playlists.id, id));
    },

    async rating(playlistId: number, userId: number) {
      const [row] = await db
        .select({
          liked: playlistRatings.liked,
          disliked: playlistRatings.disliked,
          favorite: playlistRatings.favorite,
        })
        .from(playlistRatings)
        .where(and(eq(playlistRatings.playlistId, playlistId), eq(playlistRatings.userId, userId)));
      return row ?? { liked: false, disliked: false, favorite: false };
    },

    /**
     * Applies a rating change in one upsert and answers the stored rating. A field left `null` keeps
     * its stored value (false for a first rating).
     */
    async applyRating(
      playlistId: number,
      userId: number,
      r: { liked: boolean | null; disliked: boolean | null; favorite: boolean | null },
    ) {
      const keep = (value: boolean | null, column: SQL) => (value === null ? column : sql`${value}`);
      const [row] = await db
        .insert(playlistRatings)
        .values({
          playlistId,
          userId,
          liked: r.liked ?? false,
          disliked: r.disliked ?? false,
          favorite: r.favorite ?? false,
        })
        .onConflictDoUpdate({
          target: [playlistRatings.userId, playlistRatings.playlistId],
          set: {
            liked: keep(r.liked, sql`${playlistRatings.liked}`),
            disliked: keep(r.disliked, sql`${playlistRatings.disliked}`),
            favorite: keep(r.favorite, sql`${playlistRatings.favorite}`),
          },
        })
        .returning({
          liked: playlistRatings.liked,
          disliked: playlistRatings.disliked,
          favorite: playlistRatings.favorite,
        });
      return row as { liked: boolean; disliked: boolean; favorite: boolean };
    },

    /** Recounts the denormalised like, dislike and favourite counters from the ratings. */
    async recount(playlistId: number) {
      const count = (column: SQL) =>
        sql`(select count(*)::int from ${playlistRatings} where ${playlistRatings.playlistId} = ${playlistId} and ${column})`;
      const [row] = await db
        .update(playlists)
        .set({
          likes: count(sql`${playlistRatings.liked}`),
          dislikes: count(sql`${playlistRatings.disliked}`),
          favorites: count(sql`${playlistRatings.favorite}`),
        })
        .where(eq(playlists.id, playlistId))
        .returning({ likes: playlists.likes, dislikes: playlists.dislikes, favorites: playlists.favorites });
      return row as { likes: number; dislikes: number; favorites: number } | undefined;
    },
  };
}
