import type { ListFilesResponse } from '@mesmer/shared/api/files';
import type { oneSeriesResponse, updateUserSeriesResponse } from '@mesmer/shared/api/series';
import type { z } from 'zod';
import { ApiError, api } from '../lib/api-client.ts';

/** GET /api/files?uuid=: the file with a freshly signed audio URL; null when it is gone or hidden. */
export async function fetchFile(uuid: string) {
  try {
    return (await api<ListFilesResponse>('/files', { query: { uuid } })).files[0] ?? null;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/** GET /api/series?id=: the signed-in listener's saved position in a plan. */
export async function fetchPlanPosition(id: number): Promise<number> {
  return (await api<z.infer<typeof oneSeriesResponse>>('/series', { query: { id } })).series.position;
}

/** PUT /api/userseries: saves the position. */
export async function savePlanPosition(id: number, playlistIndex: number) {
  await api<z.infer<typeof updateUserSeriesResponse>>('/userseries', {
    method: 'PUT',
    body: { id, playlistIndex },
  });
}
