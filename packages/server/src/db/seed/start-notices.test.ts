import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { DEMO_PASSWORD } from './demo-catalogue.ts';
import { logAccountNotices } from './start-notices.ts';

/** A logger that keeps its warn lines. */
function warnings() {
  const lines: string[] = [];
  const log = { warn: (message: string) => lines.push(message) } as unknown as Parameters<
    typeof logAccountNotices
  >[1];
  return { lines, log };
}

describe('logAccountNotices', async () => {
  const { app } = await createTestApp();

  it('says when there is no site owner yet and how to make one', async () => {
    const { lines, log } = warnings();
    await logAccountNotices(app.services.auth.seedAccounts, log);
    expect(lines).toEqual([
      'No site owner (user id 1) yet: create it with npm run admin -- create <username> <email>.',
    ]);
  });

  it('names the demo accounts that still have the published password', async () => {
    await createUser(app.ctx.db, { username: 'owner' });
    await createUser(app.ctx.db, { username: 'lunadrift', password: DEMO_PASSWORD });
    await createUser(app.ctx.db, { username: 'velvetvoice', password: 'changed since' });
    await createUser(app.ctx.db, { username: 'sonicmist', password: DEMO_PASSWORD });
    const { lines, log } = warnings();
    await logAccountNotices(app.services.auth.seedAccounts, log);
    expect(lines).toEqual([
      'Demo accounts with the published password "demo-password" exist: lunadrift, sonicmist. ' +
        'Anyone can sign in as them; change their passwords (npm run admin -- password <username>) ' +
        'or do not run the demo library on a public site.',
    ]);
  });
});
