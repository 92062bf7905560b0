/**
 * The shared response schema of every /api call the web app makes. Component tests check each
 * faked response against it (components/testing.tsx), so a fake cannot drift from the contract.
 */
import { resetRequestedResponse, sessionResponse } from '@mesmer/shared/api/auth';
import { errorResponse } from '@mesmer/shared/api/common';
import { listFilesResponse } from '@mesmer/shared/api/files';
import { generateResponse } from '@mesmer/shared/api/generator';
import { leaderboardResponse, leaderboardUserResponse } from '@mesmer/shared/api/leaderboard';
import { sessionResponse as listeningSessionResponse } from '@mesmer/shared/api/listening';
import {
  createPlaylistResponse,
  listPlaylistsResponse,
  playlistUserInfo,
  recentPlaylistsResponse,
  updatePlaylistResponse,
} from '@mesmer/shared/api/playlists';
import { listSeriesResponse, oneSeriesResponse, updateUserSeriesResponse } from '@mesmer/shared/api/series';
import { creatorsResponse, tagsResponse } from '@mesmer/shared/api/tags';
import {
  listTriggersResponse,
  oneTriggerResponse,
  triggerRequestsResponse,
} from '@mesmer/shared/api/triggers';
import { getUserResponse, updateUserResponse } from '@mesmer/shared/api/users';
import { z } from 'zod';

const noContent = z.null();

const responseSchemas: Record<string, z.ZodType> = {
  'GET /api/user': getUserResponse,
  'PUT /api/user': updateUserResponse,
  'POST /api/token': sessionResponse,
  'DELETE /api/token': noContent,
  'POST /api/register': sessionResponse,
  'POST /api/verify': noContent,
  'POST /api/reset_password': z.union([resetRequestedResponse, noContent]),
  'GET /api/files': listFilesResponse,
  'GET /api/tags': tagsResponse,
  'GET /api/creators': creatorsResponse,
  'GET /api/playlist/generate': generateResponse,
  'GET /api/playlists': listPlaylistsResponse,
  'GET /api/playlists/recent': recentPlaylistsResponse,
  'POST /api/playlists': createPlaylistResponse,
  'PUT /api/playlists': updatePlaylistResponse,
  'DELETE /api/playlist': noContent,
  'GET /api/playlist/user': playlistUserInfo,
  'PUT /api/playlist/user': playlistUserInfo,
  'GET /api/series': z.union([listSeriesResponse, oneSeriesResponse]),
  'PUT /api/userseries': updateUserSeriesResponse,
  'GET /api/triggers': z.union([listTriggersResponse, oneTriggerResponse]),
  'POST /api/triggers': oneTriggerResponse,
  'GET /api/triggers/requests': triggerRequestsResponse,
  'PUT /api/triggers': oneTriggerResponse,
  'DELETE /api/trigger': noContent,
  'GET /api/leaderboard': leaderboardResponse,
  'GET /api/leaderboard/user': leaderboardUserResponse,
  'POST /api/session': listeningSessionResponse,
};

/** Why a faked response breaks the contract, or null when it keeps it. */
export function contractProblem(method: string, url: string, status: number, body: unknown): string | null {
  const { pathname } = new URL(url, 'http://localhost');
  const route = `${method.toUpperCase()} ${pathname}`;
  const schema = status >= 400 ? errorResponse : responseSchemas[route];
  if (!schema) return `${route}: no response schema (add it to test/api-contract.ts)`;
  const parsed = schema.safeParse(status === 204 ? null : body);
  if (parsed.success) return null;
  return `${route} ${status}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}`;
}
