import type { RouteAddress } from '../routes/address.ts';
import { accountDataApi } from './account-data.ts';
import { authApi } from './auth.ts';
import type { RouteDefinition } from './contract.ts';
import { filesApi } from './files.ts';
import { generatorApi } from './generator.ts';
import { healthApi } from './health.ts';
import { insightsApi } from './insights.ts';
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

/** Every /api call by domain, under the first part of its address's name (`files.list`). A new domain goes here. */
export const contract = {
  accountData: accountDataApi,
  auth: authApi,
  files: filesApi,
  generator: generatorApi,
  health: healthApi,
  insights: insightsApi,
  leaderboard: leaderboardApi,
  listening: listeningApi,
  lovense: lovenseApi,
  messages: messagesApi,
  moderation: moderationApi,
  patreon: patreonApi,
  playlists: playlistsApi,
  series: seriesApi,
  tags: tagsApi,
  testClock: testClockApi,
  triggers: triggersApi,
  uploads: uploadsApi,
  users: usersApi,
};

type Contract = typeof contract;

/** The call (with its schemas' types) that an address names; the web reads it as a type only. */
export type RouteOf<A extends RouteAddress> =
  A['name'] extends `${infer D extends keyof Contract & string}.${infer K}`
    ? K extends keyof Contract[D]
      ? Contract[D][K]
      : never
    : never;

/** Every /api call, so tests can walk them all. */
export const allRoutes: readonly RouteDefinition[] = Object.values(contract).flatMap((domain) =>
  Object.values<RouteDefinition>(domain),
);
