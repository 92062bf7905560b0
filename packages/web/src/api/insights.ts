import type { InsightsBucket, InsightsPeriod } from '@mesmer/shared/domain/insights';
import { insightsRoutes } from '@mesmer/shared/routes/insights';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';

export interface InsightsRange {
  period: InsightsPeriod;
  bucket: InsightsBucket;
}

export const insightsKeys = {
  all: ['insights'] as const,
  file: (id: number, range: InsightsRange) => [...insightsKeys.all, 'file', id, range] as const,
  catalogue: (userId: number, range: InsightsRange) =>
    [...insightsKeys.all, 'catalogue', userId, range] as const,
  listening: () => [...insightsKeys.all, 'listening'] as const,
  site: (range: InsightsRange) => [...insightsKeys.all, 'site', range] as const,
};

export function fileInsightsQuery(id: number, range: InsightsRange) {
  return queryOptions({
    queryKey: insightsKeys.file(id, range),
    queryFn: ({ signal }) => call(insightsRoutes.file, { params: { id }, query: range, signal }),
    placeholderData: keepPreviousData,
  });
}

export function catalogueInsightsQuery(userId: number, range: InsightsRange) {
  return queryOptions({
    queryKey: insightsKeys.catalogue(userId, range),
    queryFn: ({ signal }) => call(insightsRoutes.catalogue, { params: { id: userId }, query: range, signal }),
    placeholderData: keepPreviousData,
  });
}

export const listeningInsightsQuery = queryOptions({
  queryKey: insightsKeys.listening(),
  queryFn: ({ signal }) => call(insightsRoutes.listening, { signal }),
});

export function siteInsightsQuery(range: InsightsRange) {
  return queryOptions({
    queryKey: insightsKeys.site(range),
    queryFn: ({ signal }) => call(insightsRoutes.site, { query: range, signal }),
    placeholderData: keepPreviousData,
  });
}
