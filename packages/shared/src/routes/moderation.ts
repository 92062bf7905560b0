import type { RouteAddress } from './address.ts';

/** The addresses of moderationApi's calls (their schemas: api/moderation.ts). */
export const moderationRoutes = {
  report: { name: 'moderation.report', method: 'POST', path: '/reports' },
  queue: { name: 'moderation.queue', method: 'GET', path: '/moderation/reports' },
  act: { name: 'moderation.act', method: 'POST', path: '/moderation/reports/:id/actions' },
  log: { name: 'moderation.log', method: 'GET', path: '/moderation/log' },
  block: { name: 'moderation.block', method: 'POST', path: '/user/block' },
  unblock: { name: 'moderation.unblock', method: 'DELETE', path: '/user/block' },
  blocks: { name: 'moderation.blocks', method: 'GET', path: '/user/blocks' },
} as const satisfies Record<string, RouteAddress>;
