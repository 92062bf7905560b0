import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../platform/context.ts';
import { accountDataRoutes } from './account-data/account-data.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { filesRoutes } from './files/files.routes.ts';
import { generatorRoutes } from './generator/generator.routes.ts';
import { healthRoutes } from './health/health.routes.ts';
import { leaderboardRoutes } from './leaderboard/leaderboard.routes.ts';
import { listeningRoutes } from './listening/listening.routes.ts';
import { testClockRoutes } from './listening/test-clock.routes.ts';
import { lovenseRoutes } from './lovense/lovense.routes.ts';
import { messagesRoutes } from './messages/messages.routes.ts';
import { moderationRoutes } from './moderation/moderation.routes.ts';
import { patreonRoutes } from './patreon/patreon.routes.ts';
import { playlistsRoutes } from './playlists/playlists.routes.ts';
import { seriesRoutes } from './series/series.routes.ts';
import { tagsRoutes } from './tags/tags.routes.ts';
import { triggersRoutes } from './triggers/triggers.routes.ts';
import { uploadsRoutes } from './uploads/uploads.routes.ts';
import { usersRoutes } from './users/users.routes.ts';

/** Every API module, mounted under /api. Add new domains here. */
export async function registerModules(api: FastifyInstance, ctx: AppContext) {
  await healthRoutes(api, ctx);
  await authRoutes(api, ctx);
  await usersRoutes(api, ctx);
  await accountDataRoutes(api, ctx);
  await listeningRoutes(api, ctx);
  await leaderboardRoutes(api, ctx);
  await testClockRoutes(api, ctx);
  await filesRoutes(api, ctx);
  await tagsRoutes(api, ctx);
  await triggersRoutes(api, ctx);
  await playlistsRoutes(api, ctx);
  await seriesRoutes(api, ctx);
  await generatorRoutes(api, ctx);
  await uploadsRoutes(api, ctx);
  await messagesRoutes(api, ctx);
  await moderationRoutes(api, ctx);
  await patreonRoutes(api, ctx);
  await lovenseRoutes(api, ctx);
}
