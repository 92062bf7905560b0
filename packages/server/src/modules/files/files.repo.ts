import type { FileSortType } from '@mesmer/shared/api/files';
import { and, asc, desc, eq, gte, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type KnownTotal, pageTotal, recomputedOrder } from '../../db/row-count.ts';
import {
  files,
  fileTags,
  fileTiers,
  fileTriggers,
  membershipTiers,
  tags,
  triggers,
  users,
} from '../../db/schema/index.ts';
import { escapeLike } from '../../db/sql-helpers.ts';
import { unlockedFilesFor, type Viewer, visibleFilesFor } from '../../platform/access.repo.ts';
import type { KeptOrder, ReadCache } from '../../platform/read-cache.ts';

/** A file's links, aggregated in the same query (one round trip for a whole page). */
const linkedTriggers = sql<{ id: number; uuid: string; name: string; trains: boolean }[]>`coalesce((
  select json_agg(json_build_object('id', ${triggers.id}, 'uuid', ${triggers.uuid}, 'name', ${triggers.name},
    'trains', ${fileTriggers.trains}) order by ${triggers.name})
  from ${fileTriggers} join ${triggers} on ${triggers.id} = ${fileTriggers.triggerId}
  where ${fileTriggers.fileId} = ${files.id}), '[]'::json)`;
const linkedTags = sql<{ id: number; name: string }[]>`coalesce((
  select json_agg(json_build_object('id', ${tags.id}, 'name', ${tags.name}) order by ${tags.name})
  from ${fileTags} join ${tags} on ${tags.id} = ${fileTags.tagId}
  where ${fileTags.fileId} = ${files.id}), '[]'::json)`;
const requiredTiers = sql<{ id: string; name: string; rank: number }[]>`coalesce((
  select json_agg(json_build_object('id', ${membershipTiers.id}, 'name', ${membershipTiers.title},
    'rank', ${membershipTiers.rank}) order by ${membershipTiers.rank}, ${membershipTiers.id})
  from ${fileTiers} join ${membershipTiers} on ${membershipTiers.id} = ${fileTiers.tierId}
  where ${fileTiers.fileId} = ${files.id}), '[]'::json)`;
/** The membership campaign name of tiers the author owns. */
const authorCampaign = sql<string | null>`(select ${membershipTiers.creatorName} from ${membershipTiers}
  where ${membershipTiers.creatorUserId} = ${files.authorId} order by ${membershipTiers.rank} limit 1)`;

const fileColumns = {
  id: files.id,
  uuid: files.uuid,
  name: files.name,
  description: files.description,
  fileType: files.fileType,
  trackNumber: files.trackNumber,
  releaseDate: files.releaseDate,
  isPublic: files.isPublic,
  plays: files.plays,
  duration: files.duration,
  audioKey: files.audioKey,
  audioType: files.audioType,
  scriptKey: files.scriptKey,
  hapticsKey: files.hapticsKey,
  warnings: files.warnings,
  authorId: files.authorId,
  authorUsername: users.username,
  authorPatreonName: authorCampaign,
  uploaderId: files.uploaderId,
  userUploaded: files.userUploaded,
  triggers: linkedTriggers,
  tags: linkedTags,
  tiers: requiredTiers,
};

export type FileRow = {
  id: number;
  uuid: string;
  name: string;
  description: string;
  fileType: number;
  trackNumber: number | null;
  releaseDate: Date;
  isPublic: boolean;
  plays: number;
  duration: number;
  audioKey: string;
  audioType: string;
  scriptKey: string | null;
  hapticsKey: string | null;
  warnings: string[];
  authorId: number;
  authorUsername: string;
  authorPatreonName: string | null;
  uploaderId: number;
  userUploaded: boolean;
  triggers: { id: number; uuid: string; name: string; trains: boolean }[];
  tags: { id: number; name: string }[];
  tiers: { id: string; name: string; rank: number }[];
};

export interface FileFilter {
  uuid?: string;
  search?: SearchTargets;
  nameQuery?: string;
  minDuration?: number;
  maxDuration?: number;
  fileTypes?: number[];
  creatorIds?: number[];
  uploaderId?: number;
  /** Files that use the trigger without training it. */
  usesTrigger?: TriggerLinks;
  /** Files that train the trigger. */
  trainsTrigger?: TriggerLinks;
  onlyUnlocked?: boolean;
  onlyHaptics?: boolean;
  /** The site owner's files only (generator without community files). */
  authorId?: number;
}

export interface FileSort {
  type: FileSortType;
  direction: 'asc' | 'desc';
}

/** Above this many files linked to a trigger, its trigger page walks the sort index. */
export const COMMON_TRIGGER_LINKS = 2000;

/** A trigger and how many files link to it that way, counted up to COMMON_TRIGGER_LINKS + 1. */
export interface TriggerLinks {
  triggerId: number;
  links: number;
}

/** What a search text matches besides a file's own name and description. */
export interface SearchTargets {
  query: string;
  /** Triggers whose name contains the text. */
  triggerIds: number[];
  /** Users whose username is the text (ignoring case). */
  authorIds: number[];
}

/**
 * Name and description (full text and substring), the author, and the triggers found
 * beforehand, as one OR over the row: the planner walks a sort index testing each row when
 * matches are common (every test is on the row, trigger links included, through
 * files.trigger_ids), or combines the GIN indexes of the text, the name and trigger_ids when
 * they are rare, and for counting.
 */
function matchesSearch(search: SearchTargets): SQL {
  return or(
    sql`${files.searchVector} @@ websearch_to_tsquery('english', ${search.query})`,
    sql`${files.name} ilike ${`%${escapeLike(search.query)}%`}`,
    search.authorIds.length > 0 ? inArray(files.authorId, search.authorIds) : undefined,
    search.triggerIds.length > 0
      ? sql`${files.triggerIds} && array[${sql.join(
          search.triggerIds.map((id) => sql`${id}`),
          sql`, `,
        )}]::integer[]`
      : undefined,
  ) as SQL;
}

function triggerLinksWhere(triggerId: number, trains: boolean): SQL | undefined {
  return and(eq(fileTriggers.triggerId, triggerId), eq(fileTriggers.trains, trains));
}

/**
 * Files linked to a trigger. A trigger of few files lists them first (an index-only scan) and
 * sorts those: left to itself the planner walks the sort index hoping to meet 20 of them soon,
 * which read 5,000 rows for a trigger of 1,000 files. A common one walks the sort index.
 */
function linkedToTrigger({ triggerId, links }: TriggerLinks, trains: boolean): SQL {
  const linked = sql`select ${fileTriggers.fileId} from ${fileTriggers} where ${triggerLinksWhere(triggerId, trains)}`;
  if (links <= COMMON_TRIGGER_LINKS) return sql`${files.id} = any(array(${linked}))`;
  return sql`exists (${linked} and ${fileTriggers.fileId} = ${files.id})`;
}

function whereOf(filter: FileFilter, viewer: Viewer): SQL | undefined {
  return and(
    visibleFilesFor(viewer),
    filter.uuid ? eq(files.uuid, filter.uuid) : undefined,
    filter.search ? matchesSearch(filter.search) : undefined,
    filter.nameQuery ? sql`${files.name} ilike ${`%${escapeLike(filter.nameQuery)}%`}` : undefined,
    filter.minDuration !== undefined ? gte(files.duration, filter.minDuration) : undefined,
    filter.maxDuration !== undefined ? lte(files.duration, filter.maxDuration) : undefined,
    filter.fileTypes ? inArray(files.fileType, filter.fileTypes) : undefined,
    filter.creatorIds ? inArray(files.authorId, filter.creatorIds) : undefined,
    filter.authorId !== undefined ? eq(files.authorId, filter.authorId) : undefined,
    filter.uploaderId !== undefined ? eq(files.uploaderId, filter.uploaderId) : undefined,
    filter.usesTrigger ? linkedToTrigger(filter.usesTrigger, false) : undefined,
    filter.trainsTrigger ? linkedToTrigger(filter.trainsTrigger, true) : undefined,
    filter.onlyUnlocked ? unlockedFilesFor(viewer) : undefined,
    filter.onlyHaptics ? sql`${files.hapticsKey} is not null` : undefined,
  );
}

const sortKeys = {
  date: files.releaseDate,
  name: sql`lower(${files.name})`,
  duration: files.duration,
  playcount: files.plays,
};

function orderOf(sort: FileSort): SQL[] {
  const dir = sort.direction === 'asc' ? asc : desc;
  return [dir(sortKeys[sort.type]), dir(files.id)];
}

/**
 * Up to this many matches (a total known beforehand), a page reads the matches first and sorts
 * them. Left to itself the planner walks the sort index, testing each row, when the matches are
 * rare: a search matching 889 files, ordered by play count, read 7,500 rows for 100 of them (20
 * ms); the matches through the indexes of the search took 8 ms. With more matches the walk wins.
 */
export const FEW_MATCHES = 1000;

/**
 * The first pages of a list (up to this many rows: five pages of 20) are slices of its kept order
 * (ctx.readCache.orders): the first one asked reads these ids, the others only their rows.
 */
export const KEPT_ORDER_ROWS = 100;

/** The order of a list that counts its total (keptOrder). */
const COUNTED_ORDER: FileSort = { type: 'date', direction: 'desc' };

/** File lists read the files part of the library alone (db/kept-generations.ts)... */
const FILES_READ = ['files'] as const;
/** ...and their order by play count the play counts too. */
const FILES_AND_PLAYS_READ = ['files', 'plays'] as const;

/** A JSON.stringify replacer that writes a Set (the viewer's tiers) as its sorted items, not `{}`. */
const setsAsArrays = (_key: string, value: unknown) => (value instanceof Set ? [...value].sort() : value);

/** `kept`: what the app keeps of the library (ctx.readCache): first rows by filter, rows by id, lookups. */
export function createFilesRepo(db: Db, kept: Pick<ReadCache, 'orders' | 'rows' | 'lookups'>) {
  const { orders, rows: keptRows, lookups } = kept;
  /** What `read` answers, kept while the files part is unchanged: a statement fewer for most lists. */
  const keptLookup = <T>(key: string, read: () => Promise<T>) =>
    lookups.obtain(key, { reads: FILES_READ }, read);
  /**
   * Full rows by id. The statement never changes, so it is prepared once per connection: planning
   * its four subqueries took longer than running them for a page of 20 files.
   */
  const rowsByIds = db
    .select(fileColumns)
    .from(files)
    .innerJoin(users, eq(users.id, files.authorId))
    .where(sql`${files.id} = any(${sql.placeholder('ids')})`)
    .prepare('files_by_ids');

  // Asked by every search and every trigger page: fixed statements, prepared once per connection.
  const searchTargetsOf = db
    .select({
      triggerIds: sql<number[]>`array(${db
        .select({ id: triggers.id })
        .from(triggers)
        .where(sql`${triggers.name} ilike ${sql.placeholder('pattern')}`)
        .orderBy(asc(triggers.id))})`,
      authorIds: sql<number[]>`array(${db
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.username}) = lower(${sql.placeholder('name')})`)})`,
    })
    // Two scalar subqueries need one row to stand on; `(select)` is that row.
    .from(sql`(select) as one_row`)
    .prepare('file_search_targets');
  const triggerLinksOf = db
    .select({ links: sql<number>`count(*)::int` })
    .from(
      db
        .select({ one: sql`1`.as('one') })
        .from(fileTriggers)
        .where(
          and(
            eq(fileTriggers.triggerId, sql.placeholder('triggerId')),
            eq(fileTriggers.trains, sql.placeholder('trains')),
          ),
        )
        .limit(COMMON_TRIGGER_LINKS + 1)
        .as('capped'),
    )
    .prepare('file_trigger_links');

  async function findByIds(ids: number[]): Promise<FileRow[]> {
    if (ids.length === 0) return [];
    return (await rowsByIds.execute({ ids })) as FileRow[];
  }

  /** Play counts by id: they change without a new files generation (decision 010). */
  const playsByIds = db
    .select({ id: files.id, plays: files.plays })
    .from(files)
    .where(sql`${files.id} = any(${sql.placeholder('ids')})`)
    .prepare('file_plays_by_ids');

  /**
   * The rows of a page by id, kept while the files are unchanged (ctx.readCache.rows): no statement,
   * or only their play counts once a play counted; the others read whole (0.5 ms for 20 rows, their
   * links aggregated).
   */
  const pageRows = (ids: readonly number[]) =>
    keptRows.files.obtain(ids, { rows: findByIds, counts: (stale) => playsByIds.execute({ ids: stale }) });

  return {
    /**
     * A page of files and the total. The page's ids (with the total counted up to a limit as a
     * column) come first and the full rows after, so the per-file aggregates run for the page
     * only, not for every row an offset skips: two round trips for any filter.
     */
    async list(filter: FileFilter, viewer: Viewer, sort: FileSort, page: { limit: number; offset: number }) {
      const where = whereOf(filter, viewer);
      const ordered = (order: FileSort, limit: number, offset: number, total: SQL<number>) =>
        db
          .select({ id: files.id, total })
          .from(files)
          .where(where)
          .orderBy(...orderOf(order))
          .limit(limit)
          .offset(offset);
      /** The same rows when the matches are known to be few: the matches first, sorted and counted. */
      const matchesFirst = async (order: FileSort, limit: number, offset: number) => {
        const matches = db
          .select({ id: files.id, key: sql`${sortKeys[order.type]}`.as('key') })
          .from(files)
          .where(where);
        const dir = sql.raw(order.direction === 'asc' ? 'asc' : 'desc');
        // `offset 0` keeps the subquery apart, so it is planned without the order. Both drivers
        // (node-postgres, PGlite) answer raw statements as { rows }.
        const { rows } = (await db.execute(sql`select matches.id, (count(*) over ())::int as total
          from (${matches} offset 0) as matches
          order by matches.key ${dir}, matches.id ${dir} limit ${limit} offset ${offset}`)) as {
          rows: { id: number; total: number }[];
        };
        return rows;
      };
      // `where` is made of the filter and what visibleFilesFor and unlockedFilesFor read of the
      // viewer, so they name the list: building the statements' text only to name it cost more
      // than the rest of a kept page. Tiers name it only when the list leaves out locked files.
      const seenBy = [viewer.id, viewer.readsAllFiles, filter.onlyUnlocked ? viewer.entitledTierIds : null];
      const filterKey = `files ${JSON.stringify([filter, seenBy], setsAsArrays)}`;
      /** The ids of rows `offset` to `offset + limit` in `order` and the list's total. */
      const rowsAndTotal = async (order: FileSort, limit: number, offset: number, known?: KnownTotal) => {
        const totalItems = pageTotal(db, files, where, known?.current ? known.total : undefined);
        // A search not known to match many reads its matches first: a count of them all runs anyway
        // when they are many. The matches' count is whole: no count again when it reaches the limit.
        const few = known === undefined ? filter.search !== undefined : known.total <= FEW_MATCHES;
        const rows = few
          ? await matchesFirst(order, limit, offset)
          : await ordered(order, limit, offset, totalItems.column);
        return { ids: rows.map((row) => row.id), total: await totalItems.of(rows[0], { exact: few }) };
      };
      /**
       * The list's kept order: its first KEPT_ORDER_ROWS and its total. The order newest first
       * counts the total; the others take it from that one (counting a search of 20,000 matches
       * took 30-160 ms, once per list instead of once per order).
       */
      const keptOrder = (order: FileSort): Promise<KeptOrder> =>
        orders.obtain(
          `${filterKey} ${order.type} ${order.direction}`,
          { reads: order.type === 'playcount' ? FILES_AND_PLAYS_READ : FILES_READ },
          (was, now) =>
            recomputedOrder(
              was,
              now,
              (known) => rowsAndTotal(order, KEPT_ORDER_ROWS, 0, known),
              order.type === COUNTED_ORDER.type && order.direction === COUNTED_ORDER.direction
                ? undefined
                : () => keptOrder(COUNTED_ORDER),
            ),
        );
      // A page within the first KEPT_ORDER_ROWS of a list (a single file by uuid aside) is a slice
      // of the list's kept order; a later page is read with the order's total.
      const sliced = !filter.uuid && page.offset + page.limit <= KEPT_ORDER_ROWS;
      const { ids, total } = filter.uuid
        ? await rowsAndTotal(sort, page.limit, page.offset)
        : sliced
          ? await keptOrder(sort)
          : await rowsAndTotal(sort, page.limit, page.offset, {
              total: (await keptOrder(COUNTED_ORDER)).total,
              current: true,
            });
      const pageIds = sliced ? ids.slice(page.offset, page.offset + page.limit) : ids;
      const byId = await pageRows(pageIds);
      return { rows: pageIds.flatMap((id) => byId.get(id) ?? []), total };
    },

    /** The triggers and the author a search text names: small indexed lookups, one round trip, kept. */
    searchTargets: (query: string): Promise<SearchTargets> =>
      keptLookup(`files: search targets ${query}`, async () => {
        const [row] = await searchTargetsOf.execute({ pattern: `%${escapeLike(query)}%`, name: query });
        return { query, triggerIds: row?.triggerIds ?? [], authorIds: row?.authorIds ?? [] };
      }),

    /** How many files link to a trigger that way, counted up to COMMON_TRIGGER_LINKS + 1. */
    triggerLinks: (triggerId: number, trains: boolean): Promise<TriggerLinks> =>
      keptLookup(`files: trigger links ${triggerId} ${trains}`, async () => {
        const [row] = await triggerLinksOf.execute({ triggerId, trains });
        return { triggerId, links: row?.links ?? 0 };
      }),

    /** Every matching file (no paging), e.g. generator candidates. */
    async listAll(filter: FileFilter, viewer: Viewer, limit: number): Promise<FileRow[]> {
      const rows = await db
        .select(fileColumns)
        .from(files)
        .innerJoin(users, eq(users.id, files.authorId))
        .where(whereOf(filter, viewer))
        .orderBy(sql`random()`)
        .limit(limit);
      return rows as FileRow[];
    },

    /** Rows by id, in the order of `ids`: kept ones as pages take them (pageRows). */
    async findByIds(ids: number[]): Promise<FileRow[]> {
      const byId = await pageRows(ids);
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    async findByUuid(uuid: string): Promise<FileRow | null> {
      const [row] = await db
        .select(fileColumns)
        .from(files)
        .innerJoin(users, eq(users.id, files.authorId))
        .where(eq(files.uuid, uuid));
      return (row as FileRow) ?? null;
    },

    /** Users who authored at least one public file, by username. */
    async listCreators() {
      return db
        .selectDistinct({ id: users.id, username: users.username })
        .from(users)
        .innerJoin(files, and(eq(files.authorId, users.id), eq(files.isPublic, true)))
        .orderBy(asc(users.username));
    },
  };
}
