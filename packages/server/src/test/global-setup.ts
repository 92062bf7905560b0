import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migratedEmbeddedImage, openDatabase } from '../db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding an empty migrated embedded database's image (TEST_DB=pglite). */
    embeddedImageFile: string;
    /** An empty migrated PostgreSQL database that each test file's database is copied from (TEST_DB=postgres). */
    postgresTemplate: string;
  }
}

/**
 * Migrates one empty database for the whole run, which each test file's database is copied from
 * (harness.ts freshDatabase): every file would otherwise create and migrate its own.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DB === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    const name = `mesmer_template_${randomBytes(6).toString('hex')}`;
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(sql);
      await client.end();
    };
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), pgliteDir: 'memory://' });
    await database.close();
    project.provide('postgresTemplate', name);
    project.provide('embeddedImageFile', '');
    return () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-db-image-'));
  const file = path.join(dir, 'empty.tar');
  fs.writeFileSync(file, Buffer.from(await (await migratedEmbeddedImage()).arrayBuffer()));
  project.provide('embeddedImageFile', file);
  project.provide('postgresTemplate', '');
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
