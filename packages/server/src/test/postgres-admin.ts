import pg from 'pg';

/** The test PostgreSQL server's administrator address (TEST_DATABASE_URL), which TEST_DB=postgres needs. */
export function testAdminUrl(): string {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  return adminUrl;
}

/** Runs `sql` (CREATE or DROP DATABASE) on an administrator connection of its own. */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: testAdminUrl() });
  await client.connect();
  await client.query(sql);
  await client.end();
}

/** The address of database `name` on the test PostgreSQL server. */
export function testDatabaseUrl(name: string): string {
  const url = new URL(testAdminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}
