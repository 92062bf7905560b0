import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migratedEmbeddedImage, openDatabase } from '../db/client.ts';
import { adminQuery, testDatabaseUrl } from './postgres-admin.ts';

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
  // The project's own `env` (vitest.config.ts) sets TEST_DB for its workers, not for this process.
  if ((project.config.env?.TEST_DB ?? process.env.TEST_DB) === 'postgres') {
    const name = `mesmer_template_${randomBytes(6).toString('hex')}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    const database = await openDatabase({ databaseUrl: testDatabaseUrl(name), pgliteDir: 'memory://' });
    await database.close();
    project.provide('postgresTemplate', name);
    project.provide('embeddedImageFile', '');
    return () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-db-image-'));
  const file = path.join(dir, 'empty.tar');
  fs.writeFileSync(file, Buffer.from(await (await migratedEmbeddedImage()).arrayBuffer()));
  project.provide('embeddedImageFile', file);
  project.provide('postgresTemplate', '');
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
