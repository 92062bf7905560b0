/**
 * Adds a year of listening to the bench data (generate.ts): 10,000,000 listening sessions as the
 * listening calls store them, then builds the insights rollups from them. Set-based
 * INSERT … SELECT generate_series in chunks of 500,000, with a progress line.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/mesmer_bench npm run bench:insights-generate -w @mesmer/bench
 *
 * What the sessions look like (all drawn per row with random()):
 * - **when**: over the last 365 days, more of them recently (a site that grows);
 * - **who**: 80 % signed-in users, the k-th most active of the 50,000 listening about 1/k as often
 *   (power law), 20 % anonymous listeners (about 200,000 distinct `ip:` keys);
 * - **what**: a skewed file popularity (a power law over the 100,000 files, shuffled so the popular
 *   ones are spread over the creators); tier-locked files get their share like any other;
 * - **how much**: 35 % heard the whole track, the rest stopped part-way (more stop early than late);
 *   one partial listen in ten skipped a tenth of the track (two served ranges); 3 % are offline
 *   plays of a kept copy (no served ranges, as POST /api/session/offline stores them);
 * - a play is counted (`play_listener`) when the listening rule would count one (30 s, or half of
 *   a shorter track); points and credited time go to signed-in listeners only.
 *
 * - where from: the source the player sends (core or community playlist, training plan, generator,
 *   file page, shared link; 10 % unsaid), a toy connected in 30 % of the sessions of files with
 *   haptics, the tier of the supporter for tier-locked files; 2 % of the users opted out.
 *
 * The secondary indexes of listening_sessions are dropped while the rows go in and made again after
 * (one sort each instead of 10,000,000 index insertions). Then the rollups are built from the
 * sessions, set-based (rebuildRollups below). Refuses a database that already has sessions unless
 * BENCH_RESET=1 (which empties listening_sessions first). BENCH_SESSIONS changes the count (e.g.
 * 1000000 for a quick try); BENCH_ROLLUPS_ONLY=1 rebuilds the rollups from the sessions there are.
 */
import fs from 'node:fs';
import pg from 'pg';
import { openDatabase } from '../packages/server/src/db/client.ts';

/** generate.ts's users and files (importing it would run it). */
const BENCH_SIZES = { users: 50_000, files: 100_000 };

export const INSIGHTS_SIZES = {
  sessions: Number(process.env.BENCH_SESSIONS ?? 10_000_000),
  chunk: 500_000,
  days: 365,
  /** Distinct anonymous listeners (`ip:` keys). */
  anonymous: 200_000,
};

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('Set DATABASE_URL to the bench database (filled first by npm run bench:generate).');
  process.exit(1);
}

// The server's migrations, as it applies them (the insights tables may be newer than the bench data).
const database = await openDatabase({ databaseUrl: url, pgliteDir: 'memory://' });
await database.close();

const client = new pg.Client({ connectionString: url });
await client.connect();

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
async function step(title: string, statement: string) {
  const started = Date.now();
  await client.query(statement);
  console.log(`${title.padEnd(40)} ${seconds(started)}`);
}

const { users, files } = BENCH_SIZES;
const { sessions, chunk, days, anonymous } = INSIGHTS_SIZES;

const counts = (await client.query('select (select count(*) from files)::int as files')).rows[0];
if (counts.files !== files) {
  console.error(
    `The database has ${counts.files} files, not ${files}: fill it first with npm run bench:generate.`,
  );
  process.exit(1);
}
/**
 * The insights rollups (modules/insights/insights-rollups.ts, decision 047) of every ended session,
 * built set-based: the same rules as rebuildInsightsRollups, which rolls sessions up one at a time
 * (a handful of statements each: hours for 10,000,000). First one pass over the sessions computes
 * what each heard (as the rebuild does: the served bytes as a share of the track, bounded by the
 * wall-clock time and the duration; an offline copy the whole track; a session whose ranges were
 * cleared its credited time), then each rollup is one INSERT … SELECT … GROUP BY.
 *
 * The retention curve of a file's day adds, for each part of the track, the plays that heard the
 * byte at its middle (heardParts). Each served range [s, e] of a play covers the parts lo..hi with
 * lo = ceil(100 s / size - 0.5) and hi = ceil(100 (e + 1) / size - 0.5) - 1; the parts of a day are
 * the running sum of +1 at lo and -1 at hi + 1 over the parts, written as runs of equal counts.
 */
/**
 * The rollups kept as plays end that migrations 0028 and 0030 derive from the ones above (per-day and
 * per-week distinct listeners, creator days and sources, listeners' last days and their per-day
 * counts, listeners' trained triggers). Their backfill statements are run as they are, read from the
 * migrations, so the two cannot drift (the triggers that keep the counts are off meanwhile: replica role).
 */
const DERIVED_ROLLUPS = [
  'insights_file_day_listeners',
  'insights_creator_days',
  'insights_creator_day_sources',
  'insights_file_listener_last_days',
  'insights_creator_listener_last_days',
  'insights_listener_triggers',
  'insights_previous_listeners',
  'insights_kept_file_plays',
  'insights_listener_last_day_counts',
];
const DERIVING_MIGRATIONS = ['0028_insights_kept_buckets.sql', '0030_insights_listener_last_day_counts.sql'];
function derivedRollupSteps(): [title: string, statement: string][] {
  const statements = DERIVING_MIGRATIONS.flatMap((name) =>
    fs
      .readFileSync(new URL(`../packages/server/src/db/migrations/${name}`, import.meta.url), 'utf8')
      .split('--> statement-breakpoint'),
  );
  return statements
    .map((statement) => statement.replace(/^\s*(--.*\n)*/, '').trim())
    .filter(
      (statement) => /^INSERT INTO "insights_/.test(statement) && !statement.includes('insights_site_totals'),
    )
    .map((statement, i) => [
      `${/^INSERT INTO "(\w+)"/.exec(statement)?.[1]} (migration backfill ${i + 1})`,
      statement,
    ]);
}

const ROLLUP_STEPS: [title: string, statement: string][] = [
  ['work_mem for the rollups', `set work_mem = '256MB'`],
  // The rows are consistent by construction: no foreign-key check per row (superuser only).
  ['no per-row foreign-key checks', 'set session_replication_role = replica'],
  [
    'empty the rollups',
    `truncate insights_file_days, insights_file_day_counts, insights_file_listeners, insights_creator_listeners,
              insights_listener_days, insights_listener_files, insights_site_days, ${DERIVED_ROLLUPS.join(', ')}`,
  ],
  [
    'what each ended session heard',
    `create unlogged table bench_insights_ended as
     select e.*,
            e.play and e.counted as counted_play,
            case when e.duration > 0 then least(1, e.heard / e.duration) else 0 end as share,
            left(encode(sha256(convert_to('insights:' || e.play_listener, 'UTF8')), 'hex'), 32) as listener_key
     from (
       select l.id, l.user_id, l.file_id, f.uploader_id, f.duration, l.ended_at, l.credited_ms, l.offline,
              l.served_ranges, l.audio_size, l.source, l.toy_connected, l.supporter_tier_id, l.play_listener,
              l.play_listener is not null as play,
              (l.ended_at at time zone 'UTC')::date as day,
              (l.ended_at at time zone u.timezone)::date as local_day,
              not l.offline and jsonb_array_length(l.served_ranges) = 0 as cleared,
              greatest(0, least(
                extract(epoch from l.ended_at - l.started_at) * 1000,
                f.duration,
                case
                  when l.offline then f.duration
                  when jsonb_array_length(l.served_ranges) = 0
                    then greatest(l.credited_ms, case when l.play_listener is not null then f.duration else 0 end)
                  when coalesce(l.audio_size, 0) = 0 then 0
                  else (select sum((r->>1)::bigint - (r->>0)::bigint + 1) from jsonb_array_elements(l.served_ranges) r)
                       / l.audio_size::float8 * f.duration
                end)) as heard,
              not coalesce(u.insights_opt_out, false) as counted
       from listening_sessions l
       join files f on f.id = l.file_id
       left join users u on u.id = l.user_id
       where l.ended_at is not null
     ) e`,
  ],
  [
    'retention: parts heard per file and day',
    `create unlogged table bench_insights_retention as
     with ranges as (
       select file_id, day, 0 as lo, floor(share * 100 - 0.5)::int as hi
       from bench_insights_ended where counted_play and heard > 0 and offline
       union all
       select e.file_id, e.day,
              greatest(0, ceil(100 * (r->>0)::numeric / e.audio_size - 0.5))::int,
              least(99, ceil(100 * ((r->>1)::numeric + 1) / e.audio_size - 0.5)::int - 1)
       from bench_insights_ended e, jsonb_array_elements(e.served_ranges) r
       where e.counted_play and e.heard > 0 and not e.offline and not e.cleared and e.audio_size > 0
     ),
     steps as (
       select file_id, day, lo as part, 1 as delta from ranges where lo <= hi
       union all
       select file_id, day, hi + 1, -1 from ranges where lo <= hi and hi < 99
       union all
       select distinct file_id, day, 0, 0 from ranges
     ),
     runs as (
       select file_id, day, part,
              sum(sum(delta)) over w as plays,
              lead(part, 1, 100) over w - part as length
       from steps group by file_id, day, part
       window w as (partition by file_id, day order by part)
     )
     select file_id, day,
            ('{' || rtrim(string_agg(repeat(plays || ',', length), '' order by part), ',') || '}')::int[] as retention
     from runs group by file_id, day`,
  ],
  [
    'insights_file_days',
    `insert into insights_file_days
       (file_id, day, plays, listening_ms, share_heard, completions, toy_plays, retention)
     select e.file_id, e.day, count(*) filter (where e.play), sum(round(e.heard)),
            coalesce(sum(e.share) filter (where e.play), 0),
            count(*) filter (where e.play and e.share >= 0.9),
            count(*) filter (where e.play and e.toy_connected),
            coalesce(min(r.retention), array_fill(0, array[100]))
     from bench_insights_ended e
     left join bench_insights_retention r on r.file_id = e.file_id and r.day = e.day
     where e.counted and e.heard > 0
     group by e.file_id, e.day`,
  ],
  [
    'insights_file_day_counts: sources',
    `insert into insights_file_day_counts (file_id, day, dimension, key, plays)
     select file_id, day, 'source', coalesce(source, case when offline then 'offline' else 'unknown' end), count(*)
     from bench_insights_ended where counted_play and heard > 0
     group by 1, 2, 3, 4`,
  ],
  [
    'insights_file_day_counts: tiers',
    `insert into insights_file_day_counts (file_id, day, dimension, key, plays)
     select file_id, day, 'tier', supporter_tier_id, count(*)
     from bench_insights_ended where counted_play and heard > 0 and supporter_tier_id is not null
     group by 1, 2, 3, 4`,
  ],
  [
    'insights_file_listeners',
    `insert into insights_file_listeners (file_id, day, listener_key)
     select distinct file_id, day, listener_key from bench_insights_ended where counted_play and heard > 0`,
  ],
  [
    'insights_creator_listeners',
    `insert into insights_creator_listeners (creator_id, day, listener_key)
     select distinct uploader_id, day, listener_key from bench_insights_ended where counted_play and heard > 0`,
  ],
  [
    'insights_listener_days',
    `insert into insights_listener_days (user_id, day, listened_ms)
     select user_id, local_day, sum(credited_ms) from bench_insights_ended
     where user_id is not null and credited_ms > 0 and local_day is not null
     group by 1, 2`,
  ],
  [
    'insights_site_days',
    `insert into insights_site_days (day, active_listeners)
     select day, count(*) from insights_listener_days group by day`,
  ],
  [
    'insights_listener_files',
    `insert into insights_listener_files (user_id, file_id, plays, listened_ms)
     select user_id, file_id, count(*) filter (where play), sum(round(heard)) from bench_insights_ended
     where user_id is not null and (play or heard > 0)
     group by 1, 2`,
  ],
  ...derivedRollupSteps(),
  ['drop the work tables', 'drop table bench_insights_ended, bench_insights_retention'],
  ['foreign-key checks back', 'set session_replication_role = default'],
  [
    'vacuum analyze the rollups',
    `vacuum analyze insights_file_days, insights_file_day_counts, insights_file_listeners,
                    insights_creator_listeners, insights_listener_days, insights_listener_files,
                    insights_site_days, ${DERIVED_ROLLUPS.join(', ')}`,
  ],
];

async function rebuildRollups() {
  const rollupsStarted = Date.now();
  await client.query('drop table if exists bench_insights_ended, bench_insights_retention');
  for (const [title, statement] of ROLLUP_STEPS) await step(title, statement);
  console.log(`${'rollups'.padEnd(40)} ${seconds(rollupsStarted)}`);
}

const started = Date.now();
if (process.env.BENCH_ROLLUPS_ONLY === '1') {
  await rebuildRollups();
  console.log(`done in ${seconds(started)}`);
  await client.end();
  process.exit(0);
}

const existing = (await client.query('select exists (select 1 from listening_sessions) as any')).rows[0].any;
if (existing && process.env.BENCH_RESET !== '1') {
  console.error('The database already has listening sessions. Run with BENCH_RESET=1 to empty them first.');
  process.exit(1);
}

await step('empty listening_sessions', 'truncate listening_sessions restart identity');

// 2 % of the users opted out of being counted in insights (their own listening still counts).
await step('insights opt-outs (2 %)', 'update users set insights_opt_out = (id % 50 = 7)');

// Every index but the primary key goes while the rows go in, and comes back after.
const indexes = (
  await client.query(
    `select i.indexname as name, i.indexdef as definition from pg_indexes i
     where i.tablename = 'listening_sessions' and i.indexname <> 'listening_sessions_pkey'`,
  )
).rows as { name: string; definition: string }[];
for (const { name } of indexes) await client.query(`drop index ${name}`);
console.log(`dropped ${indexes.length} secondary indexes`);

/**
 * One chunk of sessions g = lo..hi. The innermost select draws the random figures per row (a
 * volatile select list is not pulled up, so each row gets its own); the next one turns them into
 * a listener, a file, a start and a share heard; the next adds the file (its duration, haptics,
 * tier lock) and the listener such a file can have; the outer one writes the row.
 *
 * - The file: 1 + (floor(files × u³) × 7919 mod files): u³ makes the low ranks popular, the
 *   multiplication by a prime spreads those ranks over the ids (a permutation of 0..files-1).
 * - The user: the same with u² over the users. A tier-locked file is played by members of the tier
 *   (generate.ts: users 1001-3000, odd ones hold 'b2', even ones 'b1'; 'b2' files only by 'b2').
 * - The bytes: the bench files have no audio; a session's audio is 32 bytes per ms of the file
 *   (256 kbit/s), so shares of bytes are shares of the track, as the listening calls read them.
 * - The source as a player sends it (10 % not said), 'offline' for offline plays; a toy connected
 *   in 30 % of the online sessions of files with haptics.
 */
const chunkSql = (lo: number, hi: number) => `
insert into listening_sessions
  (token_hash, user_id, file_id, started_at, ended_at, points, credited_ms, audio_size, served_ranges,
   play_listener, offline, source, toy_connected, supporter_tier_id)
select encode(sha256(convert_to('bench-session-' || t.g, 'UTF8')), 'hex'),
       t.user_id, t.file_id, t.started_at,
       t.started_at + round(t.duration * t.share * (1 + t.paused)) * interval '1 millisecond',
       case when t.user_id is not null then floor(t.duration * t.share / 60000)::int else 0 end,
       case when t.user_id is not null then floor(t.duration * t.share)::int else 0 end,
       case when not t.offline then t.duration::bigint * 32 end,
       case
         when t.offline then '[]'::jsonb
         when t.skipped then jsonb_build_array(
           jsonb_build_array(0, floor(t.duration * 32 * t.share * 0.6)::bigint),
           jsonb_build_array(floor(t.duration * 32 * (t.share * 0.6 + 0.1))::bigint,
                             floor(t.duration * 32 * least(1, t.share + 0.1))::bigint - 1))
         else jsonb_build_array(jsonb_build_array(0, floor(t.duration * 32 * t.share)::bigint - 1))
       end,
       case when t.duration * t.share >= least(30000, t.duration / 2.0)
            then coalesce('user:' || t.user_id, 'ip:' || md5('bench-ip-' || t.anonymous_key)) end,
       t.offline,
       case
         when t.offline then 'offline'
         when t.u_source < 0.25 then 'core-playlist'
         when t.u_source < 0.45 then 'community-playlist'
         when t.u_source < 0.55 then 'training-plan'
         when t.u_source < 0.63 then 'generator'
         when t.u_source < 0.85 then 'file-page'
         when t.u_source < 0.90 then 'shared-link'
       end,
       case when not t.offline then t.haptics and t.u_toy < 0.3 end,
       case when t.tier is not null then case when t.user_id % 2 = 1 then 'b2' else 'b1' end end
from (
  select s.*, f.duration, f.haptics_key is not null as haptics, ft.tier_id as tier,
         case
           when ft.tier_id = 'b2' then 1001 + 2 * (s.base_user % 1000)
           when ft.tier_id is not null then 1001 + s.base_user % 2000
           when not s.anonymous then s.base_user
         end as user_id
  from (
    select r.g,
           1 + (floor(${files} * power(r.u_file, 3))::bigint * 7919) % ${files} as file_id,
           1 + (floor(${users} * power(r.u_user, 2))::bigint * 7907) % ${users} as base_user,
           r.u_anonymous < 0.2 as anonymous,
           floor(r.u_user * ${anonymous})::int as anonymous_key,
           now() - power(r.u_time, 1.3) * interval '${days} days' as started_at,
           case when r.u_complete < 0.35 then 1.0 else greatest(0.005, power(r.u_share, 1.6)) end as share,
           r.u_kind < 0.03 and r.u_anonymous >= 0.2 as offline,
           r.u_kind >= 0.03 and r.u_kind < 0.10 and r.u_complete >= 0.35 as skipped,
           r.u_paused * 0.1 as paused, r.u_source, r.u_toy
    from (
      select g, random() as u_file, random() as u_user, random() as u_anonymous, random() as u_time,
             random() as u_complete, random() as u_share, random() as u_kind, random() as u_paused,
             random() as u_source, random() as u_toy
      from generate_series(${lo}, ${hi}) g
    ) r
  ) s
  join files f on f.id = s.file_id
  left join file_tiers ft on ft.file_id = f.id
) t`;

// The generated rows are consistent by construction: no foreign-key check per row (superuser only).
await client.query('set session_replication_role = replica');
const fillStarted = Date.now();
for (let lo = 1; lo <= sessions; lo += chunk) {
  const hi = Math.min(sessions, lo + chunk - 1);
  await client.query(chunkSql(lo, hi));
  const rate = Math.round(hi / ((Date.now() - fillStarted) / 1000));
  const left = Math.round((sessions - hi) / rate);
  process.stdout.write(
    `\rsessions ${hi.toLocaleString('en')} / ${sessions.toLocaleString('en')}  ${rate.toLocaleString('en')}/s  about ${left} s left   `,
  );
}
console.log(`\n${'sessions'.padEnd(40)} ${seconds(fillStarted)}`);
await client.query('set session_replication_role = default');

for (const { name, definition } of indexes) await step(`index ${name}`, definition);
await step('analyze listening_sessions', 'analyze listening_sessions');

await rebuildRollups();
console.log(`done in ${seconds(started)}`);
await client.end();
