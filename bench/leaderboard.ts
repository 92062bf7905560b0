/**
 * Leaderboard at scale: fills 1,000,000 users with a long-tailed spread of points in a
 * PostgreSQL database of its own, then prints the EXPLAIN ANALYZE plans of the leaderboard
 * queries and the time the service takes for pages and ranks at the top, middle and end.
 *
 *   BENCH_ADMIN_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:leaderboard -w @mesmer/bench
 *
 * Creates the database mesmer_bench_lb when missing (the server's migrations are applied as
 * at start); refills it only when it has no users or with BENCH_RESET=1.
 */
import pg from 'pg';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { createLeaderboardService } from '../packages/server/src/modules/leaderboard/leaderboard.service.ts';

const USERS = 1_000_000;
const DATABASE = 'mesmer_bench_lb';
const RUNS = 25;

const adminUrl = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const url = new URL(adminUrl);
url.pathname = `/${DATABASE}`;

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
const exists = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
if (exists.rowCount === 0) await admin.query(`create database ${DATABASE}`);
await admin.end();

const database = await openDatabase({ databaseUrl: url.toString(), pgliteDir: 'memory://' });
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();

async function timed(title: string, statement: string) {
  const started = Date.now();
  await client.query(statement);
  console.log(`${title.padEnd(40)} ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const { rows } = await client.query('select count(*)::int as n from users');
if (rows[0].n !== USERS || process.env.BENCH_RESET === '1') {
  console.log(`Filling ${USERS.toLocaleString('en-US')} users …`);
  await timed('empty users', 'truncate users restart identity cascade');
  // 30 % never listened; the rest have power(random, 4) × 100,000 points: a long tail with
  // big ties at the bottom (about 7,300 users have 1 point, 1,700 have 10).
  await timed(
    'insert users',
    `insert into users (username, email, password_hash, points, streak)
     select 'listener' || g, 'listener' || g || '@bench.test', 'x',
            case when random() < 0.3 then 0 else floor(power(random(), 4) * 100000)::int end,
            0
     from generate_series(1, ${USERS}) g`,
  );
}
// Fresh statistics and visibility map, as autovacuum keeps them on a live server.
await timed('vacuum analyze users', 'vacuum analyze users');

const stats = await client.query(`
  select count(*) filter (where points > 0)::int as ranked,
         max(points)::int as top,
         percentile_disc(0.5) within group (order by points) filter (where points > 0) as median
  from users`);
const { ranked, top, median } = stats.rows[0];
console.log(
  `\n${USERS.toLocaleString('en-US')} users, ${ranked.toLocaleString('en-US')} with points; top ${top}, median ${median}\n`,
);

const sample = async (where: string) =>
  (await client.query(`select username, points from users where ${where} limit 1`)).rows[0] as {
    username: string;
    points: number;
  };
const topUser = await sample(`points = ${top}`);
const medianUser = await sample(`points = ${median}`);
const bottomUser = await sample('points = 1');
const lastPage = Math.floor((ranked - 1) / 50) * 50;

// The same SQL as leaderboard.repo.ts builds.
const PAGE = `select username, points from users where points > 0
  order by points desc nulls last, lower(username) collate "C" limit 50 offset $1`;
const COUNT_RANKED = 'select count(*) from users where points > 0';
const COUNT_ABOVE = 'select count(*) from users where points > $1';
const BY_NAME = 'select username, points from users where lower(username) = lower($1)';

async function explain(title: string, statement: string, params: unknown[]) {
  const plan = await client.query(`explain (analyze, buffers, costs off) ${statement}`, params);
  console.log(`--- ${title}`);
  for (const row of plan.rows) console.log(`    ${row['QUERY PLAN']}`);
}

await explain('page 1 (offset 0)', PAGE, [0]);
await explain('middle page (offset 200,000)', PAGE, [200_000]);
await explain(`last page (offset ${lastPage})`, PAGE, [lastPage]);
await explain('totalItems', COUNT_RANKED, []);
await explain(`rank of the top user (${topUser.points} points)`, COUNT_ABOVE, [topUser.points]);
await explain(`rank of a median user (${medianUser.points} points)`, COUNT_ABOVE, [medianUser.points]);
await explain('rank of a 1-point user', COUNT_ABOVE, [1]);
await explain('user by name', BY_NAME, [bottomUser.username]);

// What a request costs: the service calls (page + totalItems + first-row rank; name lookup + rank).
const service = createLeaderboardService({ db: database.db });
async function measure(title: string, call: () => Promise<unknown>) {
  await call();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  console.log(`${title.padEnd(44)} median ${at(0.5).padStart(7)} ms   p95 ${at(0.95).padStart(7)} ms`);
}

console.log(`\nService timings (${RUNS} runs each, after one warm-up):`);
await measure('GET /leaderboard page 1', () => service.page({ pageSize: 50, pageOffset: 0 }));
await measure('GET /leaderboard offset 200,000', () => service.page({ pageSize: 50, pageOffset: 200_000 }));
await measure(`GET /leaderboard last page (${lastPage})`, () =>
  service.page({ pageSize: 50, pageOffset: lastPage }),
);
await measure('GET /leaderboard/user top user', () => service.userRanking(null, topUser.username));
await measure('GET /leaderboard/user median user', () => service.userRanking(null, medianUser.username));
await measure('GET /leaderboard/user 1-point user', () => service.userRanking(null, bottomUser.username));

await client.end();
await database.close();
