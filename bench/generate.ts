/**
 * Fills a PostgreSQL database with a large library for the benchmarks:
 * 50,000 users, 100,000 files, 20,000 playlists (10 files each) and their links,
 * all with set-based INSERT … SELECT generate_series (a minute or two, not hours).
 *
 *   createdb -h 127.0.0.1 -U postgres mesmer_bench
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/mesmer_bench npm run bench:generate -w @mesmer/bench
 *
 * Refuses a database that already has users unless BENCH_RESET=1 (which empties it first).
 */
import pg from 'pg';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { seedRoles } from '../packages/server/src/db/seed/roles.ts';

export const BENCH_SIZES = {
  users: 50_000,
  creators: 500,
  files: 100_000,
  playlists: 20_000,
  /** Community playlists are spread over this many users (about four each). */
  playlistCreators: 5_000,
  perPlaylist: 10,
};

const url = process.env.DATABASE_URL;
if (!url) {
  console.error(
    'Set DATABASE_URL to the PostgreSQL database to fill (e.g. postgres://postgres@127.0.0.1:5432/mesmer_bench).',
  );
  process.exit(1);
}

// Apply the migrations (and create pg_trgm) exactly as the server does.
const database = await openDatabase({ databaseUrl: url, pgliteDir: 'memory://' });
const seedRolesAgain = () => seedRoles(database.db);

const client = new pg.Client({ connectionString: url });
await client.connect();

async function step(title: string, statement: string) {
  const started = Date.now();
  await client.query(statement);
  console.log(`${title.padEnd(34)} ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const { rows } = await client.query('select count(*)::int as n from users');
if (rows[0].n > 0 && process.env.BENCH_RESET !== '1') {
  console.error('The database already has users. Run with BENCH_RESET=1 to empty it first.');
  process.exit(1);
}
// Also restarts the id sequences, so generated ids are 1..n.
await step(
  'empty the database',
  'truncate users, roles, membership_tiers, triggers, tags, files, playlists, series restart identity cascade',
);
await seedRolesAgain();

const { users, creators, files, playlists, playlistCreators, perPlaylist } = BENCH_SIZES;
const sqlArray = (items: string[]) => `array[${items.map((w) => `'${w}'`).join(',')}]`;
const words = (list: string) => sqlArray(list.split(' '));
const ADJECTIVES = words(
  'Deep Soft Velvet Silver Quiet Gentle Drifting Warm Slow Calm Midnight Ocean Misty Golden Hollow Still Dreamy Falling Floating Lunar',
);
const NOUNS = words(
  'Induction Spiral Descent Whisper Trance Focus Sleep Garden Tide Echo Breath Fog Loop Session Awakening Current Lullaby Mirror Haze Ember Harbor Meadow Orbit Pulse Signal',
);
const PHRASES = sqlArray(
  'relaxing slowly|counting down|ocean waves|binaural beats|soft voice|gentle suggestions|deep focus|restful sleep|brown noise|rain sounds|calm breathing|warm light'.split(
    '|',
  ),
);

const started = Date.now();
await client.query('begin');
await step(
  `users (${users})`,
  `insert into users (username, email, password_hash, email_verified, points, created_at)
   select 'user' || g, 'user' || g || '@bench.local', 'bench-no-login', true, (g * 7919) % 100000,
          now() - (g % 900) * interval '1 day'
   from generate_series(1, ${users}) g`,
);
await step(
  `creator roles (${creators})`,
  `insert into user_roles (user_id, role_id)
   select g, (select id from roles where name = case when g = 1 then 'Administrator' else 'Verified Creator' end)
   from generate_series(1, ${creators}) g`,
);
await step(
  'membership tiers',
  `insert into membership_tiers (id, creator_name, title, rank, creator_user_id) values
   ('b1', 'Bench', 'Supporter', 1, 1), ('b2', 'Bench', 'Devotee', 2, 1), ('c1', 'Creator Two', 'Fan', 1, 2)`,
);
await step(
  'memberships (2,000)',
  `insert into user_memberships (user_id, tier_id, active)
   select 1000 + g, case when g % 2 = 0 then 'b1' else 'b2' end, g % 10 <> 0 from generate_series(1, 2000) g`,
);
await step(
  'triggers (200)',
  `insert into triggers (name, description, creator_id)
   select (${ADJECTIVES})[1 + g % 20] || ' ' || (${NOUNS})[1 + (g / 20) % 25] || ' ' || g,
          'Trigger number ' || g, case when g % 4 = 0 then 2 + g % 100 else 1 end
   from generate_series(1, 200) g`,
);
await step('tags (30)', `insert into tags (name) select 'tag' || g from generate_series(1, 30) g`);
await step(
  `files (${files})`,
  `insert into files (name, description, file_type, release_date, is_public, plays, duration, audio_key,
                      audio_type, script_key, haptics_key, warnings, author_id, uploader_id, user_uploaded,
                      created_at)
   select (${ADJECTIVES})[1 + (g * 7) % 20] || ' ' || (${NOUNS})[1 + (g * 13) % 25] || ' ' || g,
          'A file about ' || (${PHRASES})[1 + g % 12] || ' and ' || (${PHRASES})[1 + (g * 5) % 12] || '.',
          1 + g % 9,
          now() - ((g * 37) % 1500) * interval '1 day' - (g % 1440) * interval '1 minute',
          g % 50 <> 0,
          (g * 7919) % 100000,
          10000 + (g::bigint * 104729) % 3600000,
          'audio/bench-' || g || '.wav', 'audio/wav',
          case when g % 5 = 0 then 'scripts/bench-' || g || '.txt' end,
          case when g % 3 = 0 then 'haptics/bench-' || g || '.json' end,
          case when g % 40 = 0 then array['Contains binaural beats.'] else '{}'::text[] end,
          1 + g % ${creators}, 1 + g % ${creators}, g % ${creators} <> 0,
          -- Uploaded when released: about 67 uploads a day over four years, not 100,000 today.
          now() - ((g * 37) % 1500) * interval '1 day' - (g % 1440) * interval '1 minute'
   from generate_series(1, ${files}) g`,
);
await step(
  `file triggers (${files * 2})`,
  `insert into file_triggers (file_id, trigger_id, trains)
   select g, 1 + g % 200, g % 7 = 0 from generate_series(1, ${files}) g
   union all
   select g, 1 + (g % 200 + 1 + (g / 200) % 198) % 200, false from generate_series(1, ${files}) g`,
);
await step(
  `file tags (${files})`,
  `insert into file_tags (file_id, tag_id) select g, 1 + (g * 11) % 30 from generate_series(1, ${files}) g`,
);
await step(
  `file tiers (${files / 20})`,
  `insert into file_tiers (file_id, tier_id)
   select g, case when g % 40 = 0 then 'b2' else 'b1' end from generate_series(20, ${files}, 20) g`,
);
await step(
  `playlists (${playlists})`,
  `insert into playlists (name, description, exp_level, is_public, is_core, creator_id, date_created, likes, dislikes, favorites)
   select (${ADJECTIVES})[1 + (g * 3) % 20] || ' ' || (${NOUNS})[1 + (g * 17) % 25] || ' Mix ' || g,
          'A playlist of ' || (${PHRASES})[1 + g % 12] || '.',
          1 + g % 4, g % 10 <> 0 or g % 100 = 0, g % 100 = 0,
          case when g % 100 = 0 then 1 else 2 + (g * 7) % ${playlistCreators} end,
          now() - ((g * 13) % 1000) * interval '1 day' - g * interval '1 second',
          (g * 31) % 500, (g * 17) % 50, (g * 23) % 300
   from generate_series(1, ${playlists}) g`,
);
await step(
  `playlist files (${playlists * perPlaylist})`,
  `insert into playlist_files (playlist_id, position, file_id, disabled)
   select p, i, 1 + ((p * 7919 + i * 104729) % ${files}), i = ${perPlaylist} and p % 3 = 0
   from generate_series(1, ${playlists}) p, generate_series(1, ${perPlaylist}) i`,
);
await step(
  'playlist ratings (100,000)',
  `insert into playlist_ratings (user_id, playlist_id, liked, disliked, favorite)
   select 1 + (g * 7) % ${users}, 1 + g % ${playlists}, g % 3 = 0, g % 3 = 1, g % 2 = 0
   from generate_series(1, 100000) g
   on conflict do nothing`,
);
await step(
  'training plans (10 × 5 days)',
  `insert into series (name, description, creator_id) select 'Plan ' || g, 'Five days.', 1 from generate_series(1, 10) g;
   insert into series_playlists (series_id, position, playlist_id)
   select s, d, s * 100 + d * 1000 from generate_series(1, 10) s, generate_series(1, 5) d`,
);
await client.query('commit');
await step('vacuum analyze', 'vacuum analyze');
// The planner's default assumes spinning disks; on SSDs (and a cached data set) index lookups are
// nearly as cheap as sequential reads. Recommended for production PostgreSQL too (README).
await step(
  'random_page_cost = 1.1 (SSD)',
  `do $$ begin execute format('alter database %I set random_page_cost = 1.1', current_database()); end $$`,
);
console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
await client.end();
await database.close();
