import { routePath } from '@mesmer/shared/api/contract';
import { type AudioFile, filesApi, type UpdateFileBody } from '@mesmer/shared/api/files';
import type { AttachmentKind, StoredAttachmentKind } from '@mesmer/shared/domain/attachments';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, call } from '../../../lib/api-client.ts';
import { fileByUuidQuery } from '../api.ts';

/** GET /api/files/waveform?id=: the stored peaks and loudness, or null when the file has none. */
export function waveformQuery(id: number) {
  return queryOptions({
    queryKey: ['files', 'waveform', id],
    queryFn: async ({ signal }) => {
      try {
        return await call(filesApi.waveform, { query: { id }, signal });
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    staleTime: 10 * 60_000,
  });
}

/** GET /api/files/upload-options: the file types, tiers and flags this viewer may set. */
export const uploadOptionsQuery = queryOptions({
  queryKey: ['files', 'upload-options'],
  queryFn: ({ signal }) => call(filesApi.uploadOptions, { signal }),
  staleTime: 5 * 60_000,
});

/**
 * After a change to a file: its page shows the file as the server answered it at once, and every
 * other files query (lists, waveforms) is fetched again.
 */
function useFileChanged() {
  const client = useQueryClient();
  return ({ file }: { file: AudioFile }) => {
    client.setQueryData(fileByUuidQuery(file.uuid).queryKey, file);
    return client.invalidateQueries({ queryKey: ['files'] });
  };
}

/** PUT /api/files */
export function useUpdateFile() {
  const changed = useFileChanged();
  return useMutation({
    mutationFn: (body: UpdateFileBody) => call(filesApi.update, { body }),
    onSuccess: changed,
  });
}

/** DELETE /api/files?id= */
export function useDeleteFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(filesApi.remove, { query: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['files', 'list'] }),
  });
}

/**
 * POST /api/files/attachment, multipart: the fields fileId and kind, then the file part. The JSON
 * client cannot send a form, so this posts it itself and reads errors as `call` does.
 */
async function sendAttachment(
  fileId: number,
  kind: AttachmentKind,
  file: File,
): Promise<{ file: AudioFile }> {
  const form = new FormData();
  form.append('fileId', String(fileId));
  form.append('kind', kind);
  form.append('file', file, file.name);
  const res = await fetch(`/api${routePath(filesApi.attach)}`, {
    method: 'POST',
    body: form,
    credentials: 'same-origin',
  });
  const data = await res.json().catch(() => null);
  if (res.ok) return data;
  throw new ApiError(res.status, data?.error ?? `Request failed (${res.status}).`, data?.field);
}

export function useAttach(fileId: number) {
  const changed = useFileChanged();
  return useMutation({
    mutationFn: ({ kind, file }: { kind: AttachmentKind; file: File }) => sendAttachment(fileId, kind, file),
    onSuccess: changed,
  });
}

/** DELETE /api/files/attachment?fileId=&kind= ('funscript' attachments are stored as haptics). */
export function useDetach(fileId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (kind: StoredAttachmentKind) => call(filesApi.detach, { query: { fileId, kind } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['files'] }),
  });
}
