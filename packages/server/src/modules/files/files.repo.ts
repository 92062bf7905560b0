import type { FileSortType } from '@mesmer/shared/api/files';
import { and, asc, desc, eq, gte, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  files,
  fileTags,
  fileTiers,
  fileTriggers,
  membershipTiers,
  tags,
  triggers,
  userMemberships,
  users,
} from '../../db/schema/index.ts';
import { countRows } from './row-count.repo.ts';

/** Who is looking: decides visibility and locks. */
export interface Viewer {
  id: number | null;
  readsAllFiles: boolean;
  entitledTierIds: ReadonlySet<string>;
  hideLockedFiles: boolean;
}

export const fileColumns = {
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
  uploaderId: files.uploaderId,
  userUploaded: files.userUploaded,
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
  uploaderId: number;
  userUploaded: boolean;
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
  usesTriggerId?: number;
  trainsTriggerId?: number;
  onlyUnlocked?: boolean;
  onlyHaptics?: boolean;
  /** The site owner's files only (generator without community files). */
  authorId?: number;
}

export interface FileSort {
  type: FileSortType;
  direction: 'asc' | 'desc';
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Public files, plus the viewer's own; everything for readers of all files. */
export function visibleFilesFor(viewer: Viewer): SQL | undefined {
  if (viewer.readsAllFiles) return undefined;
  if (viewer.id === null) return eq(files.isPublic, true);
  return or(eq(files.isPublic, true), eq(files.uploaderId, viewer.id), eq(files.authorId, viewer.id));
}

/** The SQL twin of isFileLocked (shared/domain/locks.ts), for filtering lists. */
function unlockedFilesFor(viewer: Viewer): SQL | undefined {
  if (viewer.readsAllFiles) return undefined;
  const conditions: (SQL | undefined)[] = [
    sql`not exists (select 1 from ${fileTiers} where ${fileTiers.fileId} = ${files.id})`,
  ];
  if (viewer.id !== null) conditions.push(eq(files.uploaderId, viewer.id), eq(files.authorId, viewer.id));
  if (viewer.entitledTierIds.size > 0) {
    conditions.push(
      sql`exists (select 1 from ${fileTiers} where ${fileTiers.fileId} = ${files.id} and ${inArray(fileTiers.tierId, [...viewer.entitledTierIds])})`,
    );
  }
  return or(...conditions);
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
 * Name and description (full text and substring), the author and the triggers found
 * beforehand. Without trigger matches it is one OR over the row, so the planner can
 * walk a sort index for common words or combine the GIN indexes for rare ones; with
 * them, a union with the trigger links (an OR with EXISTS would force a full scan).
 */
function matchesSearch(search: SearchTargets): SQL {
  const pattern = `%${escapeLike(search.query)}%`;
  const own = or(
    sql`${files.searchVector} @@ websearch_to_tsquery('english', ${search.query})`,
    sql`${files.name} ilike ${pattern}`,
    search.authorIds.length > 0 ? inArray(files.authorId, search.authorIds) : undefined,
  ) as SQL;
  if (search.triggerIds.length === 0) return own;
  return sql`${files.id} in (select ${files.id} from ${files} where ${own}
    union select ${fileTriggers.fileId} from ${fileTriggers} where ${inArray(fileTriggers.triggerId, search.triggerIds)})`;
}

function linkedToTrigger(triggerId: number, trains: boolean): SQL {
  return sql`exists (select 1 from ${fileTriggers} where ${fileTriggers.fileId} = ${files.id}
    and ${fileTriggers.triggerId} = ${triggerId} and ${fileTriggers.trains} = ${trains})`;
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
    filter.usesTriggerId !== undefined ? linkedToTrigger(filter.usesTriggerId, false) : undefined,
    filter.trainsTriggerId !== undefined ? linkedToTrigger(filter.trainsTriggerId, true) : undefined,
    filter.onlyUnlocked ? unlockedFilesFor(viewer) : undefined,
    filter.onlyHaptics ? sql`${files.hapticsKey} is not null` : undefined,
  );
}

function orderOf(sort: FileSort): SQL[] {
  const dir = sort.direction === 'asc' ? asc : desc;
  const key = {
    date: files.releaseDate,
    name: sql`lower(${files.name})`,
    duration: files.duration,
    playcount: files.plays,
  }[sort.type];
  return [dir(key), dir(files.id)];
}

export interface FileDetails {
  triggers: Map<number, { id: number; uuid: string; name: string; trains: boolean }[]>;
  tags: Map<number, { id: number; name: string }[]>;
  tiers: Map<number, { id: string; name: string; rank: number }[]>;
  /** Membership campaign name of each author who owns tiers. */
  patreonNames: Map<number, string>;
}

function groupBy<T, K>(rows: T[], keyOf: (row: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const list = out.get(key);
    if (list) list.push(row);
    else out.set(key, [row]);
  }
  return out;
}

export function createFilesRepo(db: Db) {
  return {
    async list(filter: FileFilter, viewer: Viewer, sort: FileSort, page: { limit: number; offset: number }) {
      const where = whereOf(filter, viewer);
      const [rows, total] = await Promise.all([
        db
          .select(fileColumns)
          .from(files)
          .innerJoin(users, eq(users.id, files.authorId))
          .where(where)
          .orderBy(...orderOf(sort))
          .limit(page.limit)
          .offset(page.offset),
        countRows(db, files, where),
      ]);
      return { rows: rows as FileRow[], total };
    },

    /** Looks up the triggers and the author a search text names (small indexed lookups). */
    async searchTargets(query: string): Promise<SearchTargets> {
      const [triggerRows, authorRows] = await Promise.all([
        db
          .select({ id: triggers.id })
          .from(triggers)
          .where(sql`${triggers.name} ilike ${`%${escapeLike(query)}%`}`),
        db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = lower(${query})`),
      ]);
      return { query, triggerIds: triggerRows.map((r) => r.id), authorIds: authorRows.map((r) => r.id) };
    },

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

    async findByIds(ids: number[]): Promise<FileRow[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select(fileColumns)
        .from(files)
        .innerJoin(users, eq(users.id, files.authorId))
        .where(inArray(files.id, ids));
      return rows as FileRow[];
    },

    async findByUuid(uuid: string): Promise<FileRow | null> {
      const [row] = await db
        .select(fileColumns)
        .from(files)
        .innerJoin(users, eq(users.id, files.authorId))
        .where(eq(files.uuid, uuid));
      return (row as FileRow) ?? null;
    },

    /** Ids among `ids` that the viewer may see. */
    async visibleIds(ids: number[], viewer: Viewer): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: files.id })
        .from(files)
        .where(and(inArray(files.id, ids), visibleFilesFor(viewer)));
      return new Set(rows.map((r) => r.id));
    },

    /** Triggers, tags, tiers and author campaign names of a page of files, in one round each. */
    async details(rows: FileRow[]): Promise<FileDetails> {
      const ids = [...new Set(rows.map((r) => r.id))];
      const authorIds = [...new Set(rows.map((r) => r.authorId))];
      if (ids.length === 0) {
        return { triggers: new Map(), tags: new Map(), tiers: new Map(), patreonNames: new Map() };
      }
      const [triggerRows, tagRows, tierRows, campaignRows] = await Promise.all([
        db
          .select({
            fileId: fileTriggers.fileId,
            id: triggers.id,
            uuid: triggers.uuid,
            name: triggers.name,
            trains: fileTriggers.trains,
          })
          .from(fileTriggers)
          .innerJoin(triggers, eq(triggers.id, fileTriggers.triggerId))
          .where(inArray(fileTriggers.fileId, ids))
          .orderBy(asc(triggers.name)),
        db
          .select({ fileId: fileTags.fileId, id: tags.id, name: tags.name })
          .from(fileTags)
          .innerJoin(tags, eq(tags.id, fileTags.tagId))
          .where(inArray(fileTags.fileId, ids))
          .orderBy(asc(tags.name)),
        db
          .select({
            fileId: fileTiers.fileId,
            id: membershipTiers.id,
            name: membershipTiers.title,
            rank: membershipTiers.rank,
          })
          .from(fileTiers)
          .innerJoin(membershipTiers, eq(membershipTiers.id, fileTiers.tierId))
          .where(inArray(fileTiers.fileId, ids))
          .orderBy(asc(membershipTiers.rank)),
        db
          .selectDistinctOn([membershipTiers.creatorUserId], {
            userId: membershipTiers.creatorUserId,
            name: membershipTiers.creatorName,
          })
          .from(membershipTiers)
          .where(inArray(membershipTiers.creatorUserId, authorIds)),
      ]);
      const strip = <T extends { fileId: number }>(list: T[]) => list.map(({ fileId: _, ...rest }) => rest);
      const mapOf = <T extends { fileId: number }>(list: T[]) =>
        new Map([...groupBy(list, (r) => r.fileId)].map(([k, v]) => [k, strip(v)]));
      return {
        triggers: mapOf(triggerRows),
        tags: mapOf(tagRows),
        tiers: mapOf(tierRows),
        patreonNames: new Map(campaignRows.map((r) => [r.userId as number, r.name])),
      };
    },

    /** The viewer's hideLockedFiles setting and active membership tiers, with all tiers of those creators. */
    async viewerMemberships(userId: number) {
      const [settings, held] = await Promise.all([
        db.select({ hideLockedFiles: users.hideLockedFiles }).from(users).where(eq(users.id, userId)),
        db
          .select({
            id: membershipTiers.id,
            creatorName: membershipTiers.creatorName,
            rank: membershipTiers.rank,
          })
          .from(userMemberships)
          .innerJoin(membershipTiers, eq(membershipTiers.id, userMemberships.tierId))
          .where(and(eq(userMemberships.userId, userId), eq(userMemberships.active, true))),
      ]);
      const creatorTiers =
        held.length === 0
          ? []
          : await db
              .select({
                id: membershipTiers.id,
                creatorName: membershipTiers.creatorName,
                rank: membershipTiers.rank,
              })
              .from(membershipTiers)
              .where(
                inArray(
                  membershipTiers.creatorName,
                  held.map((t) => t.creatorName),
                ),
              );
      return { hideLockedFiles: settings[0]?.hideLockedFiles ?? false, held, creatorTiers };
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
export type FilesRepo = ReturnType<typeof createFilesRepo>;
