import type { CreateFileBody } from '@mesmer/shared/api/files';
import { filesRoutes } from '@mesmer/shared/routes/files';
import { uploadsRoutes } from '@mesmer/shared/routes/uploads';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fileKeys, uploadsQuery } from '../../../api/files.ts';
import { call } from '../../../lib/api-client.ts';
import { forgetUpload } from './upload-client.ts';

/** DELETE /api/files/upload?uuid=: the upload and its bytes are removed. */
export function useCancelUpload() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => call(uploadsRoutes.cancel, { query: { uuid } }),
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
    mutationFn: async (body: CreateFileBody) => (await call(filesRoutes.create, { body })).id,
    onSuccess: () => client.invalidateQueries({ queryKey: fileKeys.all }),
  });
}
