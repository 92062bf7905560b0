// Fails when the Drizzle schema has changes that no committed migration holds.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const dir = 'packages/server/src/db/migrations';
const before = new Set(fs.readdirSync(dir));
// The journal and snapshots as they are, put back if generating changed them (uncommitted work included).
const meta = new Map(fs.readdirSync(`${dir}/meta`).map((f) => [f, fs.readFileSync(`${dir}/meta/${f}`)]));
const out = execSync('npx drizzle-kit generate --config packages/server/drizzle.config.ts', {
  encoding: 'utf8',
});
const added = fs.readdirSync(dir).filter((f) => !before.has(f));
if (added.length > 0 || !/No schema changes/i.test(out)) {
  for (const f of added) fs.rmSync(`${dir}/${f}`, { recursive: true, force: true });
  for (const f of fs.readdirSync(`${dir}/meta`)) if (!meta.has(f)) fs.rmSync(`${dir}/meta/${f}`);
  for (const [f, bytes] of meta) fs.writeFileSync(`${dir}/meta/${f}`, bytes);
  console.error('The schema has changes without a migration: run `npm run db:generate` and commit it.');
  process.exit(1);
}
console.log('Migrations are up to date with the schema.');
