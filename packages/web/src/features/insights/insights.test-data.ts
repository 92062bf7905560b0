import type {
  CatalogueInsightsResponse,
  FileInsightsResponse,
  ListeningInsightsResponse,
  SiteInsightsResponse,
} from '@mesmer/shared/api/insights';

const period = {
  days: 7,
  bucket: 'day' as const,
  from: '2026-11-22',
  to: '2026-11-28',
  previousFrom: '2026-11-15',
  previousTo: '2026-11-21',
};

const days = [
  '2026-11-22',
  '2026-11-23',
  '2026-11-24',
  '2026-11-25',
  '2026-11-26',
  '2026-11-27',
  '2026-11-28',
];

/** A 100-second file heard by 8 listeners: all heard the first half, 6 the next quarter, 2 the last. */
export function shownFileInsights(): FileInsightsResponse {
  return {
    file: {
      id: 41,
      uuid: '00000000-0000-4000-8000-000000000041',
      name: 'Deep, "calm" dive',
      duration: 100_000,
      uploaderId: 9,
    },
    period,
    plays: { current: 8, previous: 4 },
    audience: {
      withheld: false,
      listeners: { current: 8, previous: null },
      listeningMs: { current: 3_900_000, previous: null },
      averageShareHeard: { current: 0.6875, previous: null },
      completionRate: { current: 0.25, previous: null },
      series: days.map((start, i) => ({
        start,
        plays: i === 6 ? 8 : 0,
        listeners: i === 6 ? 8 : 0,
        previousPlays: i === 2 ? 4 : 0,
        previousListeners: null,
      })),
      sources: [
        { source: 'file-page', plays: 5 },
        { source: 'core-playlist', plays: 3 },
      ],
      toyPlays: 2,
      toyShare: 0.25,
    },
    retention: Array.from({ length: 100 }, (_, i) => (i < 50 ? 1 : i < 75 ? 0.75 : 0.25)),
    tiers: null,
    playlists: {
      count: 1,
      items: [{ id: 3, uuid: '00000000-0000-4000-8000-000000000003', name: 'Night <b>mix</b>' }],
    },
  };
}

/** Four listeners: everything but the plays is withheld. */
export function withheldFileInsights(): FileInsightsResponse {
  return {
    ...shownFileInsights(),
    plays: { current: 4, previous: 0 },
    audience: { withheld: true, minListeners: 5 },
    retention: null,
    tiers: null,
    playlists: { count: 0, items: [] },
  };
}

export function catalogueInsights(
  overrides: Partial<CatalogueInsightsResponse> = {},
): CatalogueInsightsResponse {
  const file = shownFileInsights();
  return {
    creator: { id: 9, username: 'creator' },
    period,
    fileCount: 3,
    plays: { current: 12, previous: 6 },
    audience: file.audience,
    topFiles: [
      { id: 41, uuid: file.file.uuid, name: 'Deep, "calm" dive', plays: 8, previousPlays: 4 },
      { id: 42, uuid: '00000000-0000-4000-8000-000000000042', name: 'Quiet', plays: 4, previousPlays: 0 },
    ],
    ...overrides,
  };
}

export function listeningInsights(
  overrides: Partial<ListeningInsightsResponse> = {},
): ListeningInsightsResponse {
  return {
    timezone: 'UTC',
    from: '2025-11-29',
    to: '2026-11-28',
    days: [
      { day: '2026-11-26', minutes: 12 },
      { day: '2026-11-27', minutes: 45 },
      { day: '2026-11-28', minutes: 5 },
    ],
    totalMinutes: 62,
    streak: { current: 3, longest: 3 },
    streakHistory: [{ from: '2026-11-26', to: '2026-11-28', days: 3 }],
    level: { level: 2, current: 150, next: 400, fraction: 0.25 },
    topFiles: [
      {
        id: 41,
        uuid: '00000000-0000-4000-8000-000000000041',
        name: 'Deep dive',
        plays: 3,
        listeningMs: 3_720_000,
      },
    ],
    trainedTriggers: [{ id: 2, name: 'Sleep', plays: 3 }],
    plans: [
      { id: 1, uuid: '00000000-0000-4000-8000-000000000001', name: 'Seven days', done: 2, playlistCount: 7 },
    ],
    insightsOptOut: false,
    ...overrides,
  };
}

export function siteInsights(): SiteInsightsResponse {
  const zero = { current: 0, previous: 0 };
  return {
    period,
    series: days.map((day, i) => ({
      day,
      activeListeners: i,
      signUps: i === 6 ? 2 : 0,
      uploads: 1,
      messages: 3,
      reportsOpened: i === 0 ? 1 : 0,
      reportsClosed: 0,
    })),
    totals: {
      activeListeners: { current: 9, previous: 6 },
      signUps: { current: 2, previous: 4 },
      uploads: { current: 7, previous: 7 },
      messages: { current: 21, previous: 0 },
      reportsOpened: { current: 1, previous: 0 },
      reportsClosed: zero,
    },
    openReports: 1,
    storageBytes: 1_500_000_000,
    fileCount: 30,
    errors: 2,
  };
}
