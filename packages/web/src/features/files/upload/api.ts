import { type CreateFileBody, filesApi } from '@mesmer/shared/api/files';
import { type UploadStatus, uploadsApi } from '@mesmer/shared/api/uploads';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { forgetUpload } from './upload-client.ts';

/** While one of them is processing, the list is asked again this often. */
const PROCESSING_POLL_MS = 3000;

/** GET /api/files/uploads: the viewer's uploads not yet made into files. */
export const uploadsQuery = queryOptions({
  queryKey: ['files', 'uploads'],
  queryFn: async ({ signal }) => (await call(uploadsApi.list, { signal })).uploads,
  refetchInterval: (query) =>
    query.state.data?.some((u: UploadStatus) => u.state === 'processing') ? PROCESSING_POLL_MS : false,
});

/** DELETE /api/files/upload?uuid=: the upload and its bytes are removed. */
export function useCancelUpload() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => call(uploadsApi.cancel, { query: { uuid } }),
    onSuccess: (_data, uuid) => {
      forgetUpload(uuid);
      return client.invalidateQueries({ queryKey: uploadsQuery.queryKey });
    },
  });
}

/** POST /api/files: a file of the finished upload; every files list (and the uploads) is fetched again. */
export function useCreateFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateFileBody) => (await call(filesApi.create, { body })).id,
    onSuccess: () => client.invalidateQueries({ queryKey: ['files'] }),
  });
}
