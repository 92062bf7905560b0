import { type ModerationActionRequest, moderationApi } from '@mesmer/shared/api/moderation';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api-client.ts';

const MODERATION_KEY = ['moderation'] as const;

export function reportsQuery(status: 'open' | 'closed', pageOffset: number) {
  return queryOptions({
    queryKey: [...MODERATION_KEY, 'reports', status, pageOffset],
    queryFn: ({ signal }) => call(moderationApi.queue, { query: { status, pageOffset }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function moderationLogQuery(pageOffset: number) {
  return queryOptions({
    queryKey: [...MODERATION_KEY, 'log', pageOffset],
    queryFn: ({ signal }) => call(moderationApi.log, { query: { pageOffset }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Closes a report with an action; the queue and the log are read again. */
export function useModerationAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reportId, ...body }: ModerationActionRequest & { reportId: number }) =>
      call(moderationApi.act, { params: { id: reportId }, body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: MODERATION_KEY }),
  });
}
