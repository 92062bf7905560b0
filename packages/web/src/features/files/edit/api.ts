import type { AudioFile, UpdateFileBody } from '@mesmer/shared/api/files';
import type { AttachmentKind, StoredAttachmentKind } from '@mesmer/shared/domain/attachments';
import { routePath } from '@mesmer/shared/routes/address';
import { filesRoutes } from '@mesmer/shared/routes/files';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fileByUuidQuery, fileKeys } from '../../../api/files.ts';
import { ApiError, call } from '../../../lib/api-client.ts';

/**
 * After a change to a file: its page shows the file as the server answered it at once, and every
 * other files query (lists, waveforms) is fetched again.
 */
function useFileChanged() {
  const client = useQueryClient();
  return ({ file }: { file: AudioFile }) => {
    client.setQueryData(fileByUuidQuery(file.uuid).queryKey, file);
    return client.invalidateQueries({ queryKey: fileKeys.all });
  };
}

/** PUT /api/files */
export function useUpdateFile() {
  const changed = useFileChanged();
  return useMutation({
    mutationFn: (body: UpdateFileBody) => call(filesRoutes.update, { body }),
    onSuccess: changed,
  });
}

/** DELETE /api/files?id= */
export function useDeleteFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(filesRoutes.remove, { query: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: fileKeys.lists() }),
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
  const res = await fetch(`/api${routePath(filesRoutes.attach)}`, {
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
    mutationFn: (kind: StoredAttachmentKind) => call(filesRoutes.detach, { query: { fileId, kind } }),
    onSuccess: () => client.invalidateQueries({ queryKey: fileKeys.all }),
  });
}
