import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { seedDemoLibrary } from './demo.ts';
import type { SeedAccounts } from './seed-accounts.ts';
import { seedTriggerVocabulary } from './trigger-vocabulary.ts';

/** Seeds what a fresh install needs; idempotent, so it runs on every start. */
export async function seedOnStart(ctx: AppContext, log: FastifyBaseLogger, accounts: SeedAccounts) {
  // Reference data every install has, demo or not.
  await seedTriggerVocabulary(ctx.db);
  if (!ctx.config.seedDemo) return;
  await seedDemoLibrary(ctx, log, accounts);
}
