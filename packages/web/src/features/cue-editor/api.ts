import type { AudioFile } from '@mesmer/shared/api/files';
import type { HapticCue } from '@mesmer/shared/domain/haptic-cues';
import { filesRoutes } from '@mesmer/shared/routes/files';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { fileByUuidQuery, fileKeys } from '../../api/files.ts';
import { call } from '../../lib/api-client.ts';

/** The editor's server data sits under the file's keys: a change to the file refetches it too. */
export const cueEditorKeys = {
  cues: (fileId: number) => [...fileKeys.all, 'cue-editor', fileId, 'cues'] as const,
  peaks: (fileId: number, fromMs: number, toMs: number, msPerPeak: number) =>
    [...fileKeys.all, 'cue-editor', fileId, 'peaks', fromMs, toMs, msPerPeak] as const,
};

/** GET /api/files/cues?fileId=: the cues the editor starts from, with their revision. */
export function editorCuesQuery(fileId: number) {
  return queryOptions({
    queryKey: cueEditorKeys.cues(fileId),
    queryFn: ({ signal }) => call(filesRoutes.cues, { query: { fileId }, signal }),
    // The editor keeps its own copy once loaded; a refetch is asked for explicitly (a conflict).
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

/** GET /api/files/peaks: one window of the waveform at a resolution. */
export function peaksQuery(fileId: number, w: { fromMs: number; toMs: number; msPerPeak: number }) {
  return queryOptions({
    queryKey: cueEditorKeys.peaks(fileId, w.fromMs, w.toMs, w.msPerPeak),
    queryFn: ({ signal }) => call(filesRoutes.peaks, { query: { fileId, ...w }, signal }),
    staleTime: 60 * 60_000,
    placeholderData: keepPreviousData,
  });
}

/**
 * PUT /api/files/cues: saves the cues as the file's haptics unless they changed since `revision`
 * (409). The file page then shows the file as answered.
 */
export function useSaveCues(fileId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ revision, cues }: { revision: number; cues: HapticCue[] }) =>
      call(filesRoutes.saveCues, { body: { fileId, revision, cues } }),
    onSuccess: ({ revision, file }: { revision: number; file: AudioFile }, { cues }) => {
      client.setQueryData(fileByUuidQuery(file.uuid).queryKey, file);
      client.setQueryData(cueEditorKeys.cues(fileId), { cues, revision });
      return client.invalidateQueries({ queryKey: fileKeys.lists() });
    },
  });
}
