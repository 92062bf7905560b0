/**
 * Library read benchmark: starts the server (`library-server.ts`: buildApp with production
 * settings) on DATABASE_URL in its own process, then measures requests/s and p50/p99 latency
 * with autocannon at 50 connections from this process, for GET /api/files and GET /api/playlists
 * with searches, filters and sorts (as the web app asks for them), next to a bare JSON route and
 * /api/health of the same server.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/mesmer_bench npm run bench:library -w @mesmer/bench
 *
 * Every scenario runs twice, on a server that computes every answer (LIBRARY_CACHE_SECONDS=0) and
 * on one that keeps answers as it does by default (platform/read-cache.ts, 5 s). The "browsing mix"
 * scenarios spread their requests over many different URLs, so that most answers are not kept.
 *
 * The "with 5 % writes" mixes add what signed-in users write while others browse: one request in
 * twenty is a like, a favourite or a plan-progress save by one of 200 users.
 *
 * BENCH_SECONDS (default 10) sets each scenario's length; BENCH_ONLY=<substring>[,<substring>...]
 * runs the scenarios whose title contains one of them;
 * BENCH_CACHE=off|on runs one of the two servers only; BENCH_SERVERS=2 runs two server processes
 * behind node:cluster's round-robin.
 */
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startLibraryServer } from './library-server-process.ts';
import { serverAndPostgresCpuMs } from './process-cpu.ts';

const CONNECTIONS = 50;
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const servers = Number(process.env.BENCH_SERVERS ?? 1);
const databaseUrl = process.env.DATABASE_URL;

/** A member of a tier (generate.ts gives users 1001-3000 memberships), signed in for an hour. */
const MEMBER_ID = 1002;

/** The users who write in the "with 5 % writes" mixes (ordinary users: no playlists of their own). */
const WRITER_IDS = Array.from({ length: 200 }, (_, i) => 3001 + i);
/** The share of requests that write in those mixes. */
const WRITE_SHARE = 0.05;

/**
 * The signed-in viewers of the many-viewer mixes: 200 members of a tier (generate.ts gives users
 * 1001-3000 memberships) and 200 ordinary users, each with a session the script adds.
 */
const VIEWER_IDS = [
  ...Array.from({ length: 200 }, (_, i) => 1001 + i),
  ...Array.from({ length: 200 }, (_, i) => 3201 + i),
];
/** How many creators edit their own public playlists in the "creator edits" mixes. */
const EDITORS = 100;

/** Ids the scenarios need, picked from the data so that no list is empty, and sessions. */
async function prepareData(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  /** A session of an hour for the user; its bearer token. */
  const signIn = async (userId: number) => {
    const token = randomBytes(32).toString('base64url');
    await client.query(
      `insert into auth_sessions (token_hash, user_id, expires_at) values ($1, $2, now() + interval '1 hour')`,
      [createHash('sha256').update(token).digest('hex'), userId],
    );
    return token;
  };
  const memberToken = await signIn(MEMBER_ID);
  /** One client answers one query at a time: the sessions are added one after the other. */
  const signInEach = async (userIds: number[]) => {
    const tokens: string[] = [];
    for (const userId of userIds) tokens.push(await signIn(userId));
    return tokens;
  };
  const writerTokens = await signInEach(WRITER_IDS);
  const viewerTokens = await signInEach(VIEWER_IDS);
  // Community creators and one public playlist of each, which they edit.
  const edited = (
    await client.query(
      `select distinct on (creator_id) creator_id, id from playlists
         where is_public and not is_core and creator_id <> 1 order by creator_id, id limit $1`,
      [EDITORS],
    )
  ).rows as { creator_id: number; id: number }[];
  const editorTokens = await signInEach(edited.map((row) => row.creator_id));
  const edits = edited.map((row, i) => ({ token: editorTokens[i], playlistId: row.id }));
  // Playlists the writers may like (public, not core, not their own), and the training plans.
  const rateable = (
    await client.query(
      `select id from playlists where is_public and not is_core and creator_id <> 1
         and creator_id <> all($1) order by id limit 100`,
      [WRITER_IDS],
    )
  ).rows.map((r: { id: number }) => r.id);
  const plans = (await client.query('select id from series order by id')).rows.map(
    (r: { id: number }) => r.id,
  );
  if (rateable.length === 0 || plans.length === 0) {
    throw new Error('No playlists to rate or plans: fill the data with npm run bench:generate.');
  }
  const one = async (query: string) => (await client.query(query)).rows[0]?.v;
  const ids = {
    fileUuid: await one('select uuid as v from files where is_public order by id limit 1 offset 4241'),
    playlistUuid: await one(
      'select uuid as v from playlists where is_public and not is_core order by id limit 1 offset 4241',
    ),
    // A community creator with several public playlists (a user page).
    creatorId: await one(`select creator_id as v from playlists where is_public and creator_id <> 1
      group by creator_id having count(*) >= 4 order by creator_id limit 1 offset 776`),
    // A file that several public playlists hold (the "include files" filter).
    fileInPlaylists: await one(`select file_id as v from playlist_files join playlists p on p.id = playlist_id
      where p.is_public group by file_id having count(*) >= 3 order by file_id limit 1 offset 42`),
  };
  await client.end();
  for (const [name, value] of Object.entries(ids)) {
    if (value === undefined) throw new Error(`No ${name} in the data: fill it with npm run bench:generate.`);
  }
  return { ...ids, memberToken, viewerTokens, edits, writes: { tokens: writerTokens, rateable, plans } };
}

type Writes = Awaited<ReturnType<typeof prepareData>>['writes'];

/** A like or unlike, a favourite or unfavourite, or a plan-progress save, by one of the writers. */
function writeRequest({ tokens, rateable, plans }: Writes) {
  const any = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];
  const kind = any(['like', 'favourite', 'progress']);
  const body =
    kind === 'progress'
      ? { id: any(plans), playlistIndex: 1 + Math.floor(Math.random() * 6) }
      : { id: any(rateable), [kind === 'like' ? 'isLiked' : 'isFavorite']: Math.random() < 0.5 };
  return {
    method: 'PUT',
    path: kind === 'progress' ? '/api/userseries' : '/api/playlist/user',
    headers: { authorization: `Bearer ${any(tokens)}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}

type Edits = Awaited<ReturnType<typeof prepareData>>['edits'];

/** A creator renames their own public playlist (its description, so names stay searchable). */
function editRequest(edits: Edits) {
  const { token, playlistId } = edits[Math.floor(Math.random() * edits.length)];
  return {
    method: 'PUT',
    path: '/api/playlists',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id: playlistId, description: `Edited at ${Date.now()}` }),
  };
}

/**
 * One URL, or a list the requests pick from at random. `signedIn`: as the member, or as one of the
 * 400 viewers picked at random per request. `mix`: 5 % writes of users' ratings and progress, or 5 %
 * creators editing their own public playlists.
 */
type Scenario = [
  title: string,
  path: string | string[],
  signedIn?: 'member' | 'viewers' | null,
  mix?: 'writes' | 'edits',
];

const SEARCH_WORDS = [
  'deep',
  'soft',
  'velvet',
  'silver',
  'quiet',
  'gentle',
  'warm',
  'slow',
  'calm',
  'midnight',
  'ocean',
  'misty',
  'golden',
  'lunar',
  'spiral',
  'descent',
  'whisper',
  'trance',
  'focus',
  'sleep',
  'garden',
  'tide',
  'echo',
  'breath',
  'fog',
  'loop',
  'lullaby',
  'mirror',
  'haze',
  'ember',
  'harbor',
  'meadow',
  'orbit',
  'pulse',
  'signal',
  'counting',
  'waves',
  'binaural',
  'voice',
  'rain',
  'noise',
  'breathing',
  'light',
];
const FILE_SORTS = [
  'sortType=date',
  'sortType=name&sortDirection=asc',
  'sortType=duration',
  'sortType=playcount',
];

/** Every combination of the parts, joined into query strings. */
const combine = (...parts: string[][]) =>
  parts.reduce((acc, part) => acc.flatMap((a) => part.map((p) => (a && p ? `${a}&${p}` : a || p))), ['']);

/** The same order on every run: a small linear congruential generator drives a Fisher-Yates shuffle. */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  let seed = 42;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * Picks as real traffic asks: the k-th most asked of the list (after a fixed shuffle) comes
 * with weight 1/k (Zipf), so a few lists are asked often and most only now and then.
 */
function zipfPicker(items: string[]): () => string {
  const ranked = shuffled(items);
  const cumulative: number[] = [];
  let sum = 0;
  for (let k = 1; k <= ranked.length; k++) {
    sum += 1 / k;
    cumulative.push(sum);
  }
  return () => {
    const r = Math.random() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    return ranked[lo];
  };
}

/**
 * What many visitors browsing at once ask: 43 search words, 4 sorts, 5 pages, 3 file-type
 * choices (2,580 file lists), and 200 trigger pages of 3 pages each.
 */
function browsingMix(): string[] {
  const searches = combine(
    SEARCH_WORDS.map((w) => `searchQuery=${w}`),
    FILE_SORTS,
    ['', 'pageOffset=20', 'pageOffset=40', 'pageOffset=60', 'pageOffset=80'],
    ['', 'fileTypes=1,2', 'fileTypes=7,9'],
  );
  const triggerPages = combine(
    Array.from({ length: 200 }, (_, i) => `trigger=${i + 1}`),
    ['pageSize=16', 'pageSize=16&pageOffset=16', 'pageSize=16&pageOffset=32'],
  );
  return [...searches, ...triggerPages].map((query) => `/api/files?${query}`);
}

/**
 * What signed-in members browse: file searches (43 words, 3 sorts, 2 pages), trigger pages (200,
 * 2 pages) and the playlist lists of playlistMix: 842 lists.
 */
function memberMix(): string[] {
  const searches = combine(
    SEARCH_WORDS.map((w) => `searchQuery=${w}`),
    FILE_SORTS.slice(0, 3),
    ['', 'pageOffset=20'],
  );
  const triggerPages = combine(
    Array.from({ length: 200 }, (_, i) => `trigger=${i + 1}`),
    ['pageSize=16', 'pageSize=16&pageOffset=16'],
  );
  return [...[...searches, ...triggerPages].map((query) => `/api/files?${query}`), ...playlistMix()];
}

function playlistMix(): string[] {
  return combine(
    [...SEARCH_WORDS.map((w) => `searchQuery=${w}`), 'sort=likes', 'sort=favorites', 'sort=name&sortDir=asc'],
    ['', 'pageOffset=12', 'pageOffset=24', 'pageOffset=36'],
    ['simple=true'],
  ).map((query) => `/api/playlists?${query}`);
}

function scenarios(ids: Awaited<ReturnType<typeof prepareData>>): Scenario[] {
  return [
    ['trivial JSON route', '/api/bench/ping'],
    ['health (select 1)', '/api/health'],
    ['files: newest first (default)', '/api/files'],
    ['files: search "ocean"', '/api/files?searchQuery=ocean'],
    ['files: search "velvet spiral"', '/api/files?searchQuery=velvet%20spiral'],
    ['files: nameQuery "drift"', '/api/files?nameQuery=drift'],
    ['files: name A-Z, page 51', '/api/files?sortType=name&sortDirection=asc&pageOffset=1000'],
    [
      'files: most played, types 1,2, 15-30 min',
      '/api/files?sortType=playcount&fileTypes=1,2&minDuration=900000&maxDuration=1800000',
    ],
    [
      'files: shortest, haptics only, unlocked',
      '/api/files?sortType=duration&sortDirection=asc&showNonHaptics=false&showLocked=false',
    ],
    ['files: using trigger 17 (trigger page)', '/api/files?trigger=17&pageSize=16'],
    ['files: music, creators 2,3', '/api/files?fileTypes=7,9&creatorIds=2,3'],
    ['files: one by uuid (file page)', `/api/files?uuid=${ids.fileUuid}`],
    ['files: newest first, signed in (a member)', '/api/files', 'member'],
    ['playlists: newest first, simple (playlists page)', '/api/playlists?simple=true'],
    ['playlists: newest first, simple, signed in (a member)', '/api/playlists?simple=true', 'member'],
    ['playlists: most liked, simple', '/api/playlists?sort=likes&simple=true'],
    ['playlists: search "ocean", simple', '/api/playlists?searchQuery=ocean&simple=true'],
    [
      'playlists: core, by level, simple (home page)',
      '/api/playlists?core=true&isPublic=true&series=false&sort=explevel&sortDir=asc&simple=true',
    ],
    [
      `playlists: including file ${ids.fileInPlaylists}, simple`,
      `/api/playlists?includeFiles=${ids.fileInPlaylists}&simple=true`,
    ],
    [
      `playlists: user ${ids.creatorId}, simple (user page)`,
      `/api/playlists?user=${ids.creatorId}&isPublic=true&simple=true&pageSize=8`,
    ],
    ['playlist: one by uuid, with files (playlist page)', `/api/playlists?uuid=${ids.playlistUuid}`],
    ['playlists: newest first, every file (web never asks)', '/api/playlists'],
    ['browsing mix: 3,180 file lists, Zipf (searches, sorts, pages, trigger pages)', browsingMix()],
    ['browsing mix: 184 playlist lists, Zipf (searches, sorts, pages)', playlistMix()],
    ['browsing mix with 5 % writes: 3,180 file lists, Zipf', browsingMix(), null, 'writes'],
    ['browsing mix with 5 % writes: 184 playlist lists, Zipf', playlistMix(), null, 'writes'],
    ['signed-in mix: 400 viewers, 842 file and playlist lists, Zipf', memberMix(), 'viewers'],
    ['signed-in mix with 5 % creator edits: 400 viewers, 842 lists', memberMix(), 'viewers', 'edits'],
    ['anonymous mix with 5 % creator edits: 842 lists', memberMix(), null, 'edits'],
  ];
}

async function startServer(
  url: string,
  cacheSeconds: number,
): Promise<{ child: ChildProcess; port: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-bench-'));
  const server = await startLibraryServer({
    databaseUrl: url,
    dataDir,
    servers,
    env: { LIBRARY_CACHE_SECONDS: String(cacheSeconds) },
  });
  server.child.once('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  return server;
}

/**
 * The tables the scenarios write, vacuumed before each scenario: with autovacuum off (as on this
 * machine's PostgreSQL), the dead rows of earlier edits slowed every later scenario's searches
 * (25,000 dead rows beside 20,000 playlists after three runs).
 */
const WRITTEN_TABLES = [
  'playlists',
  'playlist_ratings',
  'user_series',
  'auth_sessions',
  'kept_generations',
  'kept_changes',
];

async function vacuumWritten(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`vacuum analyze ${WRITTEN_TABLES.join(', ')}`);
  await client.end();
}

/** Lists must not be empty, or the scenario would measure nothing. */
async function checkAnswer(target: string, headers: Record<string, string>) {
  const response = await fetch(target, { headers });
  if (!response.ok) throw new Error(`${target} answered ${response.status}`);
  const body = (await response.json()) as { files?: unknown[]; playlists?: unknown[] };
  const items = body.files ?? body.playlists;
  if (items && items.length === 0) throw new Error(`${target} answered an empty list`);
}

interface Figures {
  requests: number;
  p50: number;
  p99: number;
  failed: number;
  /** CPU time per request of the server and of PostgreSQL, µs. */
  cpu: string;
}

/** What a connection notes of its request under way (autocannon's per-connection context). */
interface Timed {
  startedAt: number;
  kind: string;
}

/** CPU time (ms) so far of the server process and of the benchmark database's PostgreSQL backends. */
const cpuMs = (serverPid: number | undefined) => serverAndPostgresCpuMs(serverPid, databaseUrl);

/** Latencies in ms of the last run, by kind of request. */
const latencies = new Map<string, number[]>();
/** Reads of the last run answered from a kept answer (`X-Cache: hit`), and all reads. */
const reads = { kept: 0, all: 0 };

/** Runs every chosen scenario against one server; figures by title. */
async function runScenarios(
  url: string,
  cacheSeconds: number,
  chosen: Scenario[],
  {
    memberToken,
    viewerTokens,
    edits,
    writes,
  }: { memberToken: string; viewerTokens: string[]; edits: Edits; writes: Writes },
) {
  const { child, port } = await startServer(url, cacheSeconds);
  const results = new Map<string, Figures>();
  try {
    for (const [title, paths, signedIn, mix] of chosen) {
      const token = signedIn === 'viewers' ? viewerTokens[0] : memberToken;
      const headers: Record<string, string> = signedIn ? { authorization: `Bearer ${token}` } : {};
      /** Each request's own viewer in the many-viewer mixes. */
      const viewerHeaders = (): Record<string, string> =>
        signedIn === 'viewers'
          ? { authorization: `Bearer ${viewerTokens[Math.floor(Math.random() * viewerTokens.length)]}` }
          : headers;
      await vacuumWritten(url);
      const choices = Array.isArray(paths) ? paths : [paths];
      for (const path of choices.slice(0, 3)) await checkAnswer(`http://127.0.0.1:${port}${path}`, headers);
      const pick = choices.length === 1 ? () => choices[0] : zipfPicker(choices);
      const options = {
        url: `http://127.0.0.1:${port}`,
        headers,
        connections: CONNECTIONS,
        requests: [
          {
            setupRequest: (req: { headers: Record<string, string> }, context: Timed) => {
              context.startedAt = performance.now();
              if (!mix || Math.random() >= WRITE_SHARE) {
                context.kind = 'reads';
                return { ...req, method: 'GET', path: pick(), headers: viewerHeaders(), body: undefined };
              }
              const write = mix === 'edits' ? editRequest(edits) : writeRequest(writes);
              context.kind = `writes ${write.path}`;
              return { ...req, ...write, headers: { ...req.headers, ...write.headers } };
            },
            // One request at a time per connection: the time since its setup is its latency.
            onResponse: (
              _status: number,
              _body: unknown,
              context: Timed,
              headers: Record<string, string | string[]>,
            ) => {
              if (!latencies.has(context.kind)) latencies.set(context.kind, []);
              latencies.get(context.kind)?.push(performance.now() - context.startedAt);
              if (context.kind === 'reads') {
                reads.all += 1;
                if (headers['x-cache'] === 'hit') reads.kept += 1;
              }
            },
          },
        ],
      };
      // A short warm-up so plans, the JIT and (when on) kept answers settle before the measured run.
      await autocannon({ ...options, duration: 2 });
      latencies.clear();
      Object.assign(reads, { kept: 0, all: 0 });
      const cpuBefore = cpuMs(servers === 1 ? child.pid : undefined);
      const r = await autocannon({ ...options, duration: seconds });
      const cpuAfter = cpuMs(servers === 1 ? child.pid : undefined);
      // Backends that end during the run take their CPU time with them: such a run shows none.
      const per = (ms: number) =>
        ms >= 0 && r.requests.total > 0 ? ((1000 * ms) / r.requests.total).toFixed(0) : 'n/a';
      const figures = {
        requests: Math.round(r.requests.average),
        p50: r.latency.p50,
        p99: r.latency.p99,
        failed: r.non2xx + r.errors + r.timeouts,
        cpu: `${per(cpuAfter.server - cpuBefore.server)}, ${per(cpuAfter.postgres - cpuBefore.postgres)}`,
      };
      results.set(title, figures);
      console.log(`cache ${cacheSeconds ? 'on ' : 'off'} | ${title} | ${JSON.stringify(figures)}`);
      // The reads and each kind of write of a mix apart.
      if (choices.length > 1) {
        console.log(`  reads answered from kept answers: ${Math.round((100 * reads.kept) / reads.all)} %`);
      }
      if (mix) {
        for (const [kind, ms] of latencies) {
          ms.sort((x, y) => x - y);
          const at = (q: number) => Math.round(ms[Math.floor(q * (ms.length - 1))]);
          console.log(`  ${kind}: ${ms.length} answered, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
        }
      }
    }
  } finally {
    // Requests autocannon dropped at the end of the last run finish first.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    child.disconnect();
  }
  return results;
}

async function measure() {
  if (!databaseUrl) {
    console.error('Set DATABASE_URL (fill it first with npm run bench:generate -w @mesmer/bench).');
    process.exit(1);
  }
  const ids = await prepareData(databaseUrl);
  const only = process.env.BENCH_ONLY;
  const chosen = scenarios(ids).filter(([t]) => !only || only.split(',').some((part) => t.includes(part)));
  const modes = process.env.BENCH_CACHE === 'off' ? [0] : process.env.BENCH_CACHE === 'on' ? [5] : [0, 5];
  const byMode = new Map<number, Map<string, Figures>>();
  for (const cacheSeconds of modes) {
    byMode.set(cacheSeconds, await runScenarios(databaseUrl, cacheSeconds, chosen, ids));
  }

  const cell = (f: Figures | undefined) =>
    f
      ? `${f.requests.toLocaleString('en')} | ${f.p50} | ${f.p99}${f.failed ? ` (${f.failed} failed)` : ''} | ${f.cpu}`
      : '- | - | - | -';
  console.log(
    `\n${servers} server process(es), ${CONNECTIONS} connections, ${seconds} s per scenario, ` +
      `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}); latencies in ms`,
  );
  console.log(
    '| scenario | computed req/s | p50 | p99 | CPU µs/req server, PostgreSQL | kept 5 s req/s | p50 | p99 | CPU µs/req |\n|---|---|---|---|---|---|---|---|---|',
  );
  for (const [title] of chosen) {
    console.log(`| ${title} | ${cell(byMode.get(0)?.get(title))} | ${cell(byMode.get(5)?.get(title))} |`);
  }
}

await measure();
