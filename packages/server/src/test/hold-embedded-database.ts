/**
 * Test helper run as its own process (`node --import tsx hold-embedded-database.ts <dir>`): opens the
 * embedded database in <dir>, stores a row, prints "open" and keeps the database open until killed.
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client.ts';

const database = await openDatabase({ pgliteDir: process.argv[2] });
await database.db.execute(sql`insert into roles (name) values ('Written before the crash')`);
console.log('open');
setInterval(() => {}, 60_000);
