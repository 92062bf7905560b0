import { type AudioFile, filesApi, type listFilesQuery } from '@mesmer/shared/api/files';
import { tagsApi } from '@mesmer/shared/api/tags';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApiError, call } from '../../lib/api-client.ts';

/** GET /api/files parameters as the server reads them; left-out ones take the server's defaults. */
export type FilesParams = Partial<z.output<typeof listFilesQuery>>;

/** GET /api/files: one page of files; the previous page stays on screen while the next loads. */
export function filesQuery(query: FilesParams) {
  return queryOptions({
    queryKey: ['files', 'list', query],
    queryFn: ({ signal }) => call(filesApi.list, { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/files?uuid=: one file (with its audio URL when not locked), null when there is none. */
export function fileByUuidQuery(uuid: string) {
  return queryOptions({
    queryKey: ['files', 'uuid', uuid],
    queryFn: async ({ signal }): Promise<AudioFile | null> =>
      (await call(filesApi.list, { query: { uuid }, signal })).files[0] ?? null,
  });
}

/**
 * GET of a file's scriptURL: the script as plain text. Keyed by file, not by its signed link (a fresh
 * signature is the same script); a change of attachment invalidates ['files'] and so this too.
 */
export function scriptQuery(file: Pick<AudioFile, 'id' | 'scriptURL'>) {
  return queryOptions({
    queryKey: ['files', 'script', file.id],
    queryFn: async ({ signal }): Promise<string> => {
      if (!file.scriptURL) throw new ApiError(404, 'This file has no script.');
      const res = await fetch(file.scriptURL, { signal, credentials: 'same-origin' });
      if (!res.ok) throw new ApiError(res.status, 'The script could not be loaded.');
      return res.text();
    },
    enabled: file.scriptURL !== null,
    staleTime: 10 * 60_000,
  });
}

/** GET /api/tags: file types and tags; they rarely change. */
export const tagsQuery = queryOptions({
  queryKey: ['tags'],
  queryFn: () => call(tagsApi.list),
  staleTime: 10 * 60_000,
});

/** GET /api/creators */
export const creatorsQuery = queryOptions({
  queryKey: ['creators'],
  queryFn: async () => (await call(tagsApi.creators)).creators,
  staleTime: 10 * 60_000,
});
