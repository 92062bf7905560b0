import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { createAccess } from '../platform/access.ts';
import type { AppContext } from '../platform/context.ts';
import { createSessionCache } from '../platform/session-cache.ts';
import { createUrlSigner, mediaSecret } from '../platform/signed-url.ts';
import { createStorage } from '../platform/storage.ts';
import { accountDataRoutes } from './account-data/account-data.routes.ts';
import { createAccountDataService } from './account-data/account-data.service.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { createAuthService } from './auth/auth.service.ts';
import { createCleanupService } from './cleanup/cleanup.service.ts';
import { createFileEditingService } from './files/file-editing.service.ts';
import { createFilePeaksService } from './files/file-peaks.service.ts';
import { filesRoutes } from './files/files.routes.ts';
import { createFilesService } from './files/files.service.ts';
import { generatorRoutes } from './generator/generator.routes.ts';
import { createGeneratorService } from './generator/generator.service.ts';
import { healthRoutes } from './health/health.routes.ts';
import { createHealthService } from './health/health.service.ts';
import { insightsRoutes } from './insights/insights.routes.ts';
import { createInsightsService } from './insights/insights.service.ts';
import { leaderboardRoutes } from './leaderboard/leaderboard.routes.ts';
import { createLeaderboardService } from './leaderboard/leaderboard.service.ts';
import { listeningRoutes } from './listening/listening.routes.ts';
import { createListeningService } from './listening/listening.service.ts';
import { testClockRoutes } from './listening/test-clock.routes.ts';
import { lovenseRoutes } from './lovense/lovense.routes.ts';
import { createLovenseService } from './lovense/lovense.service.ts';
import { createMessagesHub } from './messages/messages.hub.ts';
import { messagesRoutes } from './messages/messages.routes.ts';
import { createMessagesService } from './messages/messages.service.ts';
import { moderationRoutes } from './moderation/moderation.routes.ts';
import { createModerationService } from './moderation/moderation.service.ts';
import { patreonRoutes } from './patreon/patreon.routes.ts';
import { createPatreonService } from './patreon/patreon.service.ts';
import { playlistsRoutes } from './playlists/playlists.routes.ts';
import { createPlaylistsService } from './playlists/playlists.service.ts';
import { seriesRoutes } from './series/series.routes.ts';
import { createSeriesService } from './series/series.service.ts';
import { tagsRoutes } from './tags/tags.routes.ts';
import { createTagsService } from './tags/tags.service.ts';
import { triggersRoutes } from './triggers/triggers.routes.ts';
import { createTriggersService } from './triggers/triggers.service.ts';
import { uploadsRoutes } from './uploads/uploads.routes.ts';
import { createUploadsService } from './uploads/uploads.service.ts';
import { createAvatarService } from './users/avatar.service.ts';
import { createFriendsService } from './users/friends.service.ts';
import { usersRoutes } from './users/users.routes.ts';
import { createUsersService } from './users/users.service.ts';

export type Services = ReturnType<typeof buildServices>;

/**
 * The composition root: every service of the app, built once, each given its collaborators by
 * name. State that belongs to one app (kept sessions, pending served audio, the socket hub, the
 * media signer) lives in the objects made here, so two apps in one process share nothing.
 * `buildApp` calls it; tests reach the result as `app.services`.
 */
export function buildServices(ctx: AppContext, log: FastifyBaseLogger) {
  const { database, db, config, clock, mailer, limiter, metrics, readCache, readGenerations } = ctx;
  const storage = createStorage(config);
  // The secret file is read once, here.
  const signer = createUrlSigner(mediaSecret(config));
  const sessions = createSessionCache(db, readGenerations);
  const access = createAccess({ db, sessions, readCache });
  const hub = createMessagesHub();

  const users = createUsersService({ db, clock });
  const avatars = createAvatarService({ db, limiter, storage });
  const friends = createFriendsService({ db, clock, limiter, access });
  const auth = createAuthService({ db, clock, config, mailer, limiter, users, hub, log });
  const files = createFilesService({ db, clock, readCache, access, signer });
  const uploads = createUploadsService({ db, clock, limiter, metrics, storage });
  const fileEditing = createFileEditingService({ db, clock, limiter, access, storage, uploads, files });
  const filePeaks = createFilePeaksService({ db, storage, fileEditing, log });
  const triggers = createTriggersService({ db });
  const playlists = createPlaylistsService({ db, clock, readCache, access, files });
  const listening = createListeningService({ db, clock, access, users });
  const messages = createMessagesService({ db, clock, limiter, access, hub });

  return {
    storage,
    signer,
    sessions,
    access,
    hub,
    users,
    avatars,
    friends,
    auth,
    files,
    uploads,
    fileEditing,
    filePeaks,
    triggers,
    playlists,
    listening,
    messages,
    tags: createTagsService({ db }),
    series: createSeriesService({ db, access, playlists }),
    generator: createGeneratorService({ access, files, triggers }),
    leaderboard: createLeaderboardService({ db }),
    insights: createInsightsService({ db, clock, access, metrics }),
    health: createHealthService({ config, database, storage, log }),
    patreon: createPatreonService({ db, clock, config, log }),
    lovense: createLovenseService({ db, clock, config, limiter }),
    moderation: createModerationService({
      db,
      clock,
      limiter,
      access,
      fileEditing,
      playlists,
      avatars,
      hub,
    }),
    accountData: createAccountDataService({ db, clock, auth, fileEditing, uploads, avatars, hub }),
    cleanup: createCleanupService({ db, clock, auth, listening, uploads }),
  };
}

/** Every API module, mounted under /api. Add new domains here. */
export async function registerModules(api: FastifyInstance, ctx: AppContext, services: Services) {
  const { config, clock, readCache } = ctx;
  await healthRoutes(api, services.health);
  await authRoutes(api, { auth: services.auth, config });
  await usersRoutes(api, services);
  await accountDataRoutes(api, { accountData: services.accountData, config });
  await listeningRoutes(api, { listening: services.listening, config });
  await leaderboardRoutes(api, services.leaderboard);
  await insightsRoutes(api, services.insights);
  await testClockRoutes(api, { clock, config });
  await filesRoutes(api, {
    files: services.files,
    fileEditing: services.fileEditing,
    filePeaks: services.filePeaks,
    readCache,
  });
  await tagsRoutes(api, { tags: services.tags, files: services.files, readCache });
  await triggersRoutes(api, { triggers: services.triggers, readCache });
  await playlistsRoutes(api, { playlists: services.playlists, readCache });
  await seriesRoutes(api, { series: services.series, readCache });
  await generatorRoutes(api, services.generator);
  await uploadsRoutes(api, services.uploads);
  await messagesRoutes(api, services.messages);
  await moderationRoutes(api, services.moderation);
  await patreonRoutes(api, { patreon: services.patreon, config });
  await lovenseRoutes(api, services.lovense);
}
