import { moderationRoutes } from '@mesmer/shared/routes/moderation';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';

export const moderationKeys = {
  all: ['moderation'] as const,
  reports: (status: 'open' | 'closed', pageOffset: number) =>
    [...moderationKeys.all, 'reports', status, pageOffset] as const,
  log: (pageOffset: number) => [...moderationKeys.all, 'log', pageOffset] as const,
};

export function reportsQuery(status: 'open' | 'closed', pageOffset: number) {
  return queryOptions({
    queryKey: moderationKeys.reports(status, pageOffset),
    queryFn: ({ signal }) => call(moderationRoutes.queue, { query: { status, pageOffset }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function moderationLogQuery(pageOffset: number) {
  return queryOptions({
    queryKey: moderationKeys.log(pageOffset),
    queryFn: ({ signal }) => call(moderationRoutes.log, { query: { pageOffset }, signal }),
    placeholderData: keepPreviousData,
  });
}
