/**
 * Insights benchmark (issue 32): starts the server (`library-server.ts`: buildApp with production
 * settings, no rate limit) on the bench database filled by generate.ts and insights-generate.ts
 * (10,000,000 listening sessions over a year, rollups built), then
 *
 * 1. hits every insights call with autocannon at 20 connections, each request signed in as one of
 *    many distinct users (200 creators on their own files and catalogues, 400 listeners on their
 *    own listening, 10 administrators on any file, catalogue and the site), for every period, next
 *    to a bare JSON route of the same server in the same run: requests/s, p50 and p99;
 * 2. ends listening sessions through the real calls (POST /api/session to start with a source, the
 *    media route with `&session=` and a Range for part of the track, POST /api/session to end with
 *    toyConnected) at 20 at once, and prints the time and CPU per ended session; then times the
 *    rollup step alone for the same sessions (in a transaction rolled back).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/mesmer_bench npm run bench:insights -w @mesmer/bench
 *
 * BENCH_SECONDS (default 10) sets each scenario's length; BENCH_ONLY=<text>[,<text>...] runs the
 * scenarios whose title contains one of the texts (texts without commas, e.g. `long-tail`, `site`;
 * `ends` for the ended-session cost alone);
 * BENCH_ENDS (default 2000) is how many sessions part 2 ends.
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
import { wavHeader } from './wav.ts';

const CONNECTIONS = 20;
/** The target of issue 32: every insights call under this p99 at 20 connections. */
const TARGET_P99_MS = 100;
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const ends = Number(process.env.BENCH_ENDS ?? 2000);
const databaseUrl = process.env.DATABASE_URL;
const only = process.env.BENCH_ONLY?.split(',');
const chosen = (title: string) => !only || only.some((part) => title.includes(part));

/** generate.ts's sizes: files g are uploaded by 1 + g % 500 (user 1 is the administrator). */
const FILES = 100_000;
const CREATORS = 500;
/** insights-generate.ts's popularity: the file of rank k (0 = most played) and the user of rank k. */
const fileOfRank = (k: number) => 1 + ((k * 7919) % FILES);
const userOfRank = (k: number) => 1 + ((k * 7907) % 50_000);
const uploaderOf = (fileId: number) => 1 + (fileId % CREATORS);

/** Staff: user 1 (generate.ts's administrator) and nine more the script makes administrators. */
const STAFF_IDS = [1, ...Array.from({ length: 9 }, (_, i) => 49_991 + i)];
/** Creators signed in for their own files and catalogue. */
const CREATOR_IDS = Array.from({ length: 200 }, (_, i) => 2 + i);
/** Listeners: the 200 most active (the longest calendars) and 200 ordinary ones. */
const LISTENER_IDS = [
  ...Array.from({ length: 200 }, (_, k) => userOfRank(k)),
  ...Array.from({ length: 200 }, (_, k) => userOfRank(10_000 + k * 37)),
];
/** The listeners of part 2, one session each (so no two sessions of one user overlap). */
const ENDER_FIRST_ID = 20_001;
/** Part 2 plays this many files (public, not tier-locked), whose audio the script writes. */
const ENDS_FILES = 20;
/**
 * Which of the popular files part 2 plays: drawn anew each run, because a listener's replay of a file
 * is not a new play (listening rule), so a second run on the same files would count almost none.
 */
const ENDS_FIRST_RANK = Math.floor(Math.random() * 5_000);
/** Bytes of each of those files' audio. */
const AUDIO_BYTES = 2_000_000;

const any = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)];

/** A bearer token for each user (auth sessions of two hours, added to the database). */
async function signIn(client: pg.Client, userIds: number[]): Promise<string[]> {
  const tokens = userIds.map(() => randomBytes(32).toString('base64url'));
  await client.query(
    `insert into auth_sessions (token_hash, user_id, expires_at)
     select h, u, now() + interval '2 hours' from unnest($1::text[], $2::int[]) as t(h, u)`,
    [tokens.map((t) => createHash('sha256').update(t).digest('hex')), userIds],
  );
  return tokens;
}

/**
 * For each creator: their most played file and one from the long tail (few listeners: the withheld
 * answer), by insights-generate.ts's ranks.
 */
function creatorFiles() {
  const popular = new Map<number, number>();
  const tail = new Map<number, number>();
  for (let k = 0; popular.size < CREATOR_IDS.length || tail.size < CREATOR_IDS.length; k++) {
    const headId = fileOfRank(k);
    if (CREATOR_IDS.includes(uploaderOf(headId)) && !popular.has(uploaderOf(headId))) {
      popular.set(uploaderOf(headId), headId);
    }
    const tailId = fileOfRank(90_000 + k);
    if (CREATOR_IDS.includes(uploaderOf(tailId)) && !tail.has(uploaderOf(tailId))) {
      tail.set(uploaderOf(tailId), tailId);
    }
  }
  return { popular, tail };
}

async function prepareData(client: pg.Client) {
  await client.query(
    `insert into user_roles (user_id, role_id)
     select u, (select id from roles where name = 'Administrator') from unnest($1::int[]) u
     on conflict do nothing`,
    [STAFF_IDS],
  );
  const staff = await signIn(client, STAFF_IDS);
  const creators = await signIn(client, CREATOR_IDS);
  const listeners = await signIn(client, LISTENER_IDS);
  const { popular, tail } = creatorFiles();
  return {
    staff,
    creators: CREATOR_IDS.map((id, i) => ({
      id,
      token: creators[i],
      popular: popular.get(id) as number,
      tail: tail.get(id) as number,
    })),
    listeners,
  };
}

type Prepared = Awaited<ReturnType<typeof prepareData>>;

/** One request of a scenario: its path and the token it is signed in with. */
type Pick = () => { path: string; token?: string };
type Scenario = [title: string, pick: Pick];

const PERIODS = [7, 28, 90, 365] as const;

function scenarios({ staff, creators, listeners }: Prepared): Scenario[] {
  const creator = () => any(creators);
  const list: Scenario[] = [['trivial JSON route (baseline)', () => ({ path: '/api/bench/ping' })]];
  for (const period of PERIODS) {
    const bucket = period >= 90 ? 'week' : 'day';
    const q = `period=${period}&bucket=${bucket}`;
    list.push(
      [
        `file, ${period} days by ${bucket}: 200 creators, their most played file`,
        () => {
          const c = creator();
          return { path: `/api/insights/files/${c.popular}?${q}`, token: c.token };
        },
      ],
      [
        `file, ${period} days by ${bucket}: 200 creators, a long-tail file`,
        () => {
          const c = creator();
          return { path: `/api/insights/files/${c.tail}?${q}`, token: c.token };
        },
      ],
      [
        `catalogue, ${period} days by ${bucket}: 200 creators, their own`,
        () => {
          const c = creator();
          return { path: `/api/insights/creators/${c.id}?${q}`, token: c.token };
        },
      ],
    );
  }
  list.push(
    [
      'file, 28 days: 10 administrators, the 200 most played files',
      () => ({
        path: `/api/insights/files/${fileOfRank(Math.floor(Math.random() * 200))}`,
        token: any(staff),
      }),
    ],
    [
      'catalogue, 28 days: 10 administrators, 500 creators',
      () => ({ path: `/api/insights/creators/${2 + Math.floor(Math.random() * 499)}`, token: any(staff) }),
    ],
    [
      'your listening: the 200 most active listeners',
      () => ({ path: '/api/insights/listening', token: any(listeners.slice(0, 200)) }),
    ],
    [
      'your listening: 200 ordinary listeners',
      () => ({ path: '/api/insights/listening', token: any(listeners.slice(200)) }),
    ],
  );
  // The site dashboard last: its slow statements must not overlap the other calls' runs.
  for (const period of PERIODS) {
    const bucket = period >= 90 ? 'week' : 'day';
    list.push([
      `site, ${period} days by ${bucket}: 10 administrators`,
      () => ({ path: `/api/insights/site?period=${period}&bucket=${bucket}`, token: any(staff) }),
    ]);
  }
  return list;
}

/** CPU time (ms) so far of the server process and of the bench database's PostgreSQL backends. */
const cpuMs = (serverPid: number | undefined) => serverAndPostgresCpuMs(serverPid, databaseUrl);

interface Figures {
  requests: number;
  p50: number;
  p99: number;
  failed: number;
  cpu: string;
}

/**
 * Statements of a scenario still running when autocannon stops (a slow call whose requests timed
 * out) would slow the next one: wait until the bench database has none, up to 30 s, then cancel them.
 */
async function settle() {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const busy = `select pid from pg_stat_activity
    where datname = current_database() and state = 'active' and backend_type = 'client backend'
      and pid <> pg_backend_pid()`;
  for (let i = 0; i < 60; i++) {
    if ((await client.query(busy)).rowCount === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const cancelled = (
    await client.query(
      `select left(regexp_replace(query, '\\s+', ' ', 'g'), 60) as query,
              concat_ws(' ', wait_event_type, wait_event) as waiting,
              round(extract(epoch from now() - query_start)) as seconds, pg_cancel_backend(pid)
       from pg_stat_activity where pid in (${busy})`,
    )
  ).rows as { query: string; waiting: string; seconds: number }[];
  for (const { query, waiting, seconds } of cancelled) {
    console.log(`  cancelled after ${seconds} s (waiting: ${waiting || 'no'}): ${query}`);
  }
  await client.end();
}

/** Every request of the scenario's first few must answer 200, or it would measure an error page. */
async function check(base: string, pick: Pick): Promise<string> {
  const notes = new Set<string>();
  for (let i = 0; i < 5; i++) {
    const { path: target, token } = pick();
    const response = await fetch(`${base}${target}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    const text = await response.text();
    // A wrong request (4xx) is the script's mistake; an overloaded server (5xx) is a figure.
    if (response.status < 500 && !response.ok) {
      throw new Error(`${target} answered ${response.status}: ${text.slice(0, 200)}`);
    }
    if (!response.ok) {
      notes.add(`${response.status} before the run`);
      continue;
    }
    const body = JSON.parse(text) as { audience?: { withheld: boolean }; days?: unknown[] };
    if (body.audience) notes.add(body.audience.withheld ? 'withheld' : 'shown');
    if (body.days) notes.add(`${body.days.length} days`);
  }
  return [...notes].join(', ');
}

async function runCalls(base: string, child: ChildProcess, list: Scenario[]) {
  const results: { title: string; figures: Figures; note: string }[] = [];
  for (const [title, pick] of list) {
    const note = await check(base, pick);
    const options = {
      url: base,
      connections: CONNECTIONS,
      requests: [
        {
          setupRequest: (req: Record<string, unknown>) => {
            const { path: target, token } = pick();
            return {
              ...req,
              method: 'GET',
              path: target,
              headers: token ? { authorization: `Bearer ${token}` } : {},
            };
          },
        },
      ],
    };
    await autocannon({ ...options, duration: 2 });
    const before = cpuMs(child.pid);
    const r = await autocannon({ ...options, duration: seconds });
    const after = cpuMs(child.pid);
    const per = (ms: number) => (r.requests.total > 0 ? ((1000 * ms) / r.requests.total).toFixed(0) : 'n/a');
    const figures = {
      requests: Math.round(r.requests.average),
      p50: r.latency.p50,
      p99: r.latency.p99,
      failed: r.non2xx + r.errors + r.timeouts,
      cpu: `${per(after.server - before.server)}, ${per(after.postgres - before.postgres)}`,
    };
    results.push({ title, figures, note });
    await settle();
    console.log(`${title} | ${JSON.stringify(figures)}${note ? ` | ${note}` : ''}`);
  }
  return results;
}

/** Percentile q (0-1) of sorted values. */
const at = (sorted: number[], q: number) => sorted[Math.floor(q * (sorted.length - 1))];

/** Runs `work` for each item, `width` at a time; the latency of each, ms. */
async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const item = items[next++];
        const started = performance.now();
        await work(item);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

/**
 * Part 2: `ends` listeners each start a session of one of ENDS_FILES files, fetch part of its
 * audio under it and end it. The start of every session is moved back by the track's length in
 * the database before the ends (a benchmark cannot wait for listening time to pass), so the ends
 * credit time, count plays and fill the rollups as a real listen would.
 */
async function measureEnds(base: string, child: ChildProcess, client: pg.Client, mediaDir: string) {
  const files = (
    await client.query(
      `select id, uuid, audio_key, duration from files
       where is_public and id not in (select file_id from file_tiers) and id = any($1::int[])`,
      [Array.from({ length: ENDS_FILES * 2 }, (_, k) => fileOfRank(ENDS_FIRST_RANK + k))],
    )
  ).rows.slice(0, ENDS_FILES) as { id: number; uuid: string; audio_key: string; duration: number }[];
  for (const file of files) {
    const target = path.join(mediaDir, file.audio_key);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const audio = Buffer.alloc(AUDIO_BYTES);
    wavHeader(AUDIO_BYTES).copy(audio);
    fs.writeFileSync(target, audio);
  }
  const enderIds = Array.from({ length: ends }, (_, i) => ENDER_FIRST_ID + i);
  const tokens = await signIn(client, enderIds);
  const headers = (token: string) => ({
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
  });
  const urls = new Map<number, string>();
  for (const file of files) {
    const found = await fetch(`${base}/api/files?uuid=${file.uuid}`, { headers: headers(tokens[0]) });
    const body = (await found.json()) as { files: { audioURL: string }[] };
    urls.set(file.id, body.files[0].audioURL);
  }
  const sources = [
    'core-playlist',
    'community-playlist',
    'training-plan',
    'generator',
    'file-page',
    'shared-link',
  ];
  const sessions = enderIds.map((_, i) => ({
    token: tokens[i],
    file: files[i % files.length],
    /** Up to which byte of the audio the listener got (a partial listen, or all of it). */
    until: Math.random() < 0.35 ? AUDIO_BYTES - 1 : Math.floor(AUDIO_BYTES * Math.random()),
    session: '',
  }));

  // Start and serve: not measured.
  await pool(sessions, CONNECTIONS, async (s) => {
    const started = await fetch(`${base}/api/session`, {
      method: 'POST',
      headers: headers(s.token),
      body: JSON.stringify({ timezone: 'UTC', source: any(sources) }),
    });
    if (!started.ok) throw new Error(`session start answered ${started.status}: ${await started.text()}`);
    s.session = ((await started.json()) as { token: string }).token;
    const audio = await fetch(`${base}${urls.get(s.file.id)}&session=${s.session}`, {
      headers: { ...headers(s.token), range: `bytes=0-${s.until}` },
    });
    if (audio.status !== 206 && audio.status !== 200)
      throw new Error(`the media route answered ${audio.status}`);
    await audio.arrayBuffer();
  });
  // The media route stores served audio within about a second (decision 033).
  await new Promise((resolve) => setTimeout(resolve, 2500));
  const hashes = sessions.map((s) => createHash('sha256').update(s.session).digest('hex'));
  const moved = await client.query(
    `update listening_sessions l set started_at = l.started_at - f.duration * interval '1 millisecond'
     from files f where f.id = l.file_id and l.token_hash = any($1::text[])`,
    [hashes],
  );
  if (moved.rowCount !== ends) throw new Error(`${moved.rowCount} of ${ends} sessions had served audio`);

  const before = cpuMs(child.pid);
  const wallStarted = performance.now();
  const latencies = await pool(sessions, CONNECTIONS, async (s) => {
    const ended = await fetch(`${base}/api/session`, {
      method: 'POST',
      headers: headers(s.token),
      body: JSON.stringify({
        sessionToken: s.session,
        fileId: s.file.id,
        timezone: 'UTC',
        toyConnected: Math.random() < 0.2,
      }),
    });
    if (!ended.ok) throw new Error(`session end answered ${ended.status}: ${await ended.text()}`);
    await ended.arrayBuffer();
  });
  const wallMs = performance.now() - wallStarted;
  const after = cpuMs(child.pid);
  const counted = (
    await client.query(
      `select count(*) filter (where play_listener is not null)::int as plays,
              count(*) filter (where credited_ms > 0)::int as credited
       from listening_sessions where token_hash = any($1::text[])`,
      [hashes],
    )
  ).rows[0] as { plays: number; credited: number };
  console.log(
    `\nended ${ends} sessions through POST /api/session at ${CONNECTIONS} at once ` +
      `(${counted.plays} counted as plays, ${counted.credited} credited time):\n` +
      `  ${(ends / (wallMs / 1000)).toFixed(0)} ends/s, p50 ${at(latencies, 0.5).toFixed(1)} ms, p99 ${at(latencies, 0.99).toFixed(1)} ms, ` +
      `wall ${(wallMs / ends).toFixed(2)} ms per ended session at ${CONNECTIONS} at once; ` +
      `CPU per ended session: server ${((after.server - before.server) / ends).toFixed(2)} ms, ` +
      `PostgreSQL ${((after.postgres - before.postgres) / ends).toFixed(2)} ms`,
  );
  return {
    hashes,
    latencies,
    wallMs,
    cpu: { server: after.server - before.server, postgres: after.postgres - before.postgres },
  };
}

/**
 * The rollup step alone (insights-rollups.ts `rollUpSession`, what an end adds to the rollups), for
 * the sessions part 2 ended: each in its own transaction, one after the other, rolled back so the
 * rollups are not counted twice. An empty transaction (begin, rollback) is timed the same way to
 * show what the transaction itself costs.
 */
async function measureRollupStep(hashes: string[]) {
  const { openDatabase, withTransaction } = await import('../packages/server/src/db/client.ts');
  const { rollUpSession } = await import('../packages/server/src/modules/insights/insights-rollups.ts');
  const database = await openDatabase({ databaseUrl, pgliteDir: 'memory://' });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const rows = (
    await client.query(
      `select l.id, l.user_id, l.file_id, l.started_at, l.ended_at, l.credited_ms, l.audio_size, l.served_ranges,
              l.play_listener, l.offline, l.source, l.toy_connected, l.supporter_tier_id, f.duration, u.timezone
       from listening_sessions l join files f on f.id = l.file_id left join users u on u.id = l.user_id
       where l.token_hash = any($1::text[]) and l.ended_at is not null`,
      [hashes],
    )
  ).rows;
  await client.end();
  class Rollback extends Error {}
  const time = async (work: (tx: Parameters<typeof rollUpSession>[0]) => Promise<void>) => {
    const latencies: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      const started = performance.now();
      await withTransaction(database.db, async (tx) => {
        await work(tx);
        throw new Rollback();
      }).catch((err) => {
        if (!(err instanceof Rollback)) throw err;
      });
      latencies.push(performance.now() - started);
    }
    return latencies.sort((a, b) => a - b);
  };
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
  const empty = await time(async () => {});
  let next = 0;
  const before = cpuMs(undefined);
  const rolled = await time(async (tx) => {
    const row = rows[next++];
    const durationMs = Number(row.duration);
    const audioSize = Number(row.audio_size ?? 0);
    const served = !row.offline && audioSize ? { ranges: row.served_ranges, audioSize } : null;
    const deliveredMs = served
      ? (row.served_ranges.reduce((sum: number, [a, b]: [number, number]) => sum + b - a + 1, 0) /
          audioSize) *
        durationMs
      : 0;
    const wallClockMs = row.ended_at.getTime() - row.started_at.getTime();
    await rollUpSession(tx, {
      sessionId: row.id,
      fileId: row.file_id,
      endedAt: row.ended_at,
      userId: row.user_id,
      listener: row.play_listener ?? `user:${row.user_id}`,
      play: row.play_listener !== null,
      heardMs: Math.max(0, Math.min(wallClockMs, durationMs, row.offline ? durationMs : deliveredMs)),
      durationMs,
      served,
      source: row.source,
      toyConnected: row.toy_connected,
      supporterTierId: row.supporter_tier_id,
      creditedMs: row.credited_ms,
      timezone: row.timezone,
    });
  });
  const after = cpuMs(undefined);
  await database.close();
  console.log(
    `the rollup step alone (rollUpSession in its own transaction, rolled back), ${rows.length} sessions one at a time:\n` +
      `  mean ${mean(rolled).toFixed(2)} ms, p50 ${at(rolled, 0.5).toFixed(2)} ms, p99 ${at(rolled, 0.99).toFixed(2)} ms per ended session ` +
      `(an empty transaction: mean ${mean(empty).toFixed(2)} ms); PostgreSQL CPU ${((after.postgres - before.postgres) / rows.length).toFixed(2)} ms per session`,
  );
}

async function measure() {
  if (!databaseUrl) {
    console.error('Set DATABASE_URL (fill it first with bench:generate and bench:insights-generate).');
    process.exit(1);
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const sessionCount = Number(
    (await client.query(`select reltuples::bigint as n from pg_class where relname = 'listening_sessions'`))
      .rows[0]?.n ?? 0,
  );
  if (sessionCount < 1_000_000) {
    console.error(
      'The bench database has few listening sessions: run npm run bench:insights-generate first.',
    );
    process.exit(1);
  }
  const prepared = await prepareData(client);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-bench-insights-'));
  const { child, port } = await startLibraryServer({ databaseUrl, dataDir });
  const base = `http://127.0.0.1:${port}`;
  try {
    const list = scenarios(prepared).filter(([title], i) => i === 0 || chosen(title));
    // BENCH_ONLY=ends alone skips the calls (the baseline is kept only next to calls).
    const results = list.length > 1 ? await runCalls(base, child, list) : [];
    if (chosen('ends')) {
      const { hashes } = await measureEnds(base, child, client, path.join(dataDir, 'media'));
      await measureRollupStep(hashes);
    }

    console.log(
      `\n${CONNECTIONS} connections, ${seconds} s per scenario, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), ` +
        `about ${sessionCount.toLocaleString('en')} listening sessions; latencies in ms; target p99 < ${TARGET_P99_MS} ms`,
    );
    console.log(
      '| call | req/s | p50 | p99 | CPU µs/req server, PostgreSQL | answer | p99 target |\n|---|---|---|---|---|---|---|',
    );
    for (const { title, figures: f, note } of results) {
      const target = title.startsWith('trivial') ? '-' : f.p99 < TARGET_P99_MS ? 'met' : 'NOT met';
      console.log(
        `| ${title} | ${f.requests.toLocaleString('en')} | ${f.p50} | ${f.p99}${f.failed ? ` (${f.failed} failed)` : ''} | ${f.cpu} | ${note || '-'} | ${target} |`,
      );
    }
  } finally {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    child.disconnect();
    await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
    await client.end();
  }
}

await measure();
