import { SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import type { FastifyBaseLogger } from 'fastify';
import { createAccountsRepo } from '../../modules/auth/accounts.repo.ts';
import { verifyPassword } from '../../modules/auth/passwords.ts';
import type { AppContext } from '../../platform/context.ts';
import { DEMO_PASSWORD, DEMO_USERS } from './demo-catalogue.ts';

/**
 * Warns at start about accounts an operator must know of: demo accounts that still
 * have the published password (whether seeded now or on an earlier start), and a
 * missing site owner, which only `npm run admin -- create` makes.
 */
export async function logAccountNotices(ctx: AppContext, log: FastifyBaseLogger) {
  const users = createAccountsRepo(ctx.db);
  const open: string[] = [];
  for (const demo of DEMO_USERS) {
    const user = await users.findByUsername(demo.username);
    if (user && (await verifyPassword(user.passwordHash, DEMO_PASSWORD))) open.push(user.username);
  }
  if (open.length > 0) {
    log.warn(
      `Demo accounts with the published password "${DEMO_PASSWORD}" exist: ${open.join(', ')}. ` +
        'Anyone can sign in as them; change their passwords (npm run admin -- password <username>) ' +
        'or do not run the demo library on a public site.',
    );
  }
  if (!(await users.findById(SITE_OWNER_ID))) {
    log.warn('No site owner (user id 1) yet: create it with npm run admin -- create <username> <email>.');
  }
}
