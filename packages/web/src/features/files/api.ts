import type { AudioFile, ListFilesResponse, listFilesQuery } from '@mesmer/shared/api/files';
import type { CreatorsResponse, TagsResponse } from '@mesmer/shared/api/tags';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../lib/api-client.ts';

/** GET /api/files parameters as the server reads them; left-out ones take the server's defaults. */
export type FilesParams = Partial<z.output<typeof listFilesQuery>>;

/** GET /api/files: one page of files; the previous page stays on screen while the next loads. */
export function filesQuery(query: FilesParams) {
  return queryOptions({
    queryKey: ['files', 'list', query],
    queryFn: ({ signal }) => api<ListFilesResponse>('/files', { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/files?uuid=: one file (with its audio URL when not locked), null when there is none. */
export function fileByUuidQuery(uuid: string) {
  return queryOptions({
    queryKey: ['files', 'uuid', uuid],
    queryFn: async ({ signal }): Promise<AudioFile | null> =>
      (await api<ListFilesResponse>('/files', { query: { uuid }, signal })).files[0] ?? null,
  });
}

/** GET /api/tags: file types and tags; they rarely change. */
export const tagsQuery = queryOptions({
  queryKey: ['tags'],
  queryFn: () => api<TagsResponse>('/tags'),
  staleTime: 10 * 60_000,
});

/** GET /api/creators */
export const creatorsQuery = queryOptions({
  queryKey: ['creators'],
  queryFn: async () => (await api<CreatorsResponse>('/creators')).creators,
  staleTime: 10 * 60_000,
});
