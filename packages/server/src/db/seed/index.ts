import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { seedDemoLibrary } from './demo.ts';

/** Seeds what a fresh install needs; idempotent, so it runs on every start. */
export async function seedOnStart(ctx: AppContext, log: FastifyBaseLogger) {
  if (!ctx.config.seedDemo) return;
  await seedDemoLibrary(ctx, log);
}
