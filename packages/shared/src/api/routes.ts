import { accountDataApi } from './account-data.ts';
import { authApi } from './auth.ts';
import type { RouteDefinition } from './contract.ts';
import { filesApi } from './files.ts';
import { generatorApi } from './generator.ts';
import { healthApi } from './health.ts';
import { leaderboardApi } from './leaderboard.ts';
import { listeningApi } from './listening.ts';
import { lovenseApi } from './lovense.ts';
import { messagesApi } from './messages.ts';
import { moderationApi } from './moderation.ts';
import { patreonApi } from './patreon.ts';
import { playlistsApi } from './playlists.ts';
import { seriesApi } from './series.ts';
import { tagsApi } from './tags.ts';
import { testClockApi } from './test-clock.ts';
import { triggersApi } from './triggers.ts';
import { uploadsApi } from './uploads.ts';
import { usersApi } from './users.ts';

/** Every /api call, so tests can walk them all. A new domain's `…Api` object goes here. */
export const allRoutes: readonly RouteDefinition[] = [
  accountDataApi,
  authApi,
  filesApi,
  generatorApi,
  healthApi,
  leaderboardApi,
  listeningApi,
  lovenseApi,
  messagesApi,
  moderationApi,
  patreonApi,
  playlistsApi,
  seriesApi,
  tagsApi,
  testClockApi,
  triggersApi,
  uploadsApi,
  usersApi,
].flatMap((domain) => Object.values(domain));
