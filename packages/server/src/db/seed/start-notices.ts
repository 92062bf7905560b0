import { SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import type { FastifyBaseLogger } from 'fastify';
import { DEMO_PASSWORD, DEMO_USERS } from './demo-catalogue.ts';
import type { SeedAccounts } from './seed-accounts.ts';

/**
 * Warns at start about accounts an operator must know of: demo accounts that still
 * have the published password (whether seeded now or on an earlier start), and a
 * missing site owner, which only `npm run admin -- create` makes.
 */
export async function logAccountNotices(accounts: SeedAccounts, log: FastifyBaseLogger) {
  const open: string[] = [];
  for (const demo of DEMO_USERS) {
    if (await accounts.hasPassword(demo.username, DEMO_PASSWORD)) open.push(demo.username);
  }
  if (open.length > 0) {
    log.warn(
      `Demo accounts with the published password "${DEMO_PASSWORD}" exist: ${open.join(', ')}. ` +
        'Anyone can sign in as them; change their passwords (npm run admin -- password <username>) ' +
        'or do not run the demo library on a public site.',
    );
  }
  if (!(await accounts.exists(SITE_OWNER_ID))) {
    log.warn('No site owner (user id 1) yet: create it with npm run admin -- create <username> <email>.');
  }
}
