import { z } from 'zod';
import {
  DEFAULT_INSIGHTS_PERIOD,
  INSIGHTS_BUCKETS,
  INSIGHTS_PERIODS,
  type InsightsPeriod,
  MIN_LISTENERS,
  PLAY_SOURCES,
  UNKNOWN_SOURCE,
} from '../domain/insights.ts';
import { insightsRoutes } from '../routes/insights.ts';
import { errorResponse, queryId } from './common.ts';
import { defineRoute } from './contract.ts';

/** `?period=7|28|90|365` (days, default 28). */
export const insightsPeriod = z.coerce
  .number()
  .int()
  .min(Math.min(...INSIGHTS_PERIODS))
  .max(Math.max(...INSIGHTS_PERIODS))
  .refine((n) => (INSIGHTS_PERIODS as readonly number[]).includes(n), {
    message: `must be one of ${INSIGHTS_PERIODS.join(', ')}`,
  })
  .transform((n) => n as InsightsPeriod)
  .default(DEFAULT_INSIGHTS_PERIOD);

/** GET /api/insights/files/:id, /api/insights/creators/:id, /api/insights/site: the period and series bucket. */
export const insightsQuery = z.object({
  period: insightsPeriod,
  /** One series point per UTC day or per week (Monday first). Default: day. */
  bucket: z.enum(INSIGHTS_BUCKETS).default('day'),
});
export type InsightsQuery = z.input<typeof insightsQuery>;

export const insightsParams = z.object({ id: queryId });

/** A figure for the period and for the period of the same length just before it (null: withheld). */
export const comparedFigure = z.object({
  current: z.number(),
  /** null when the previous period had fewer than MIN_LISTENERS listeners (only for figures that are withheld). */
  previous: z.number().nullable(),
});
export type ComparedFigure = z.infer<typeof comparedFigure>;

/** The period answered: UTC days, inclusive. */
export const insightsPeriodRange = z.object({
  days: z.number().int(),
  bucket: z.enum(INSIGHTS_BUCKETS),
  from: z.string(),
  to: z.string(),
  previousFrom: z.string(),
  previousTo: z.string(),
});

/** One point of a plays series: the bucket's first day (YYYY-MM-DD). */
export const playsPoint = z.object({
  start: z.string(),
  plays: z.number().int(),
  /** Distinct listeners in the bucket. */
  listeners: z.number().int(),
  /**
   * Plays on the bucket's days of the period moved back by the period's length: the previous
   * period drawn beside this one.
   */
  previousPlays: z.number().int(),
  /**
   * Distinct listeners on those days of the previous period (for a week, the 7 days moved back);
   * null when the previous period had fewer than MIN_LISTENERS.
   */
  previousListeners: z.number().int().nullable(),
});
export type PlaysPoint = z.infer<typeof playsPoint>;

/** Plays by where they started (PLAY_SOURCES, or 'unknown' when the player did not say). */
export const sourceCount = z.object({
  source: z.enum([...PLAY_SOURCES, UNKNOWN_SOURCE]),
  plays: z.number().int(),
});

export const tierCount = z.object({
  /** The Patreon tier's id, or null for plays by listeners who hold no tier of the file (its uploader, staff). */
  tierId: z.string().nullable(),
  name: z.string(),
  rank: z.number().int(),
  plays: z.number().int(),
});

/**
 * The figures of one file or a catalogue that are shown only from MIN_LISTENERS distinct listeners on.
 * Below that the whole object is withheld: `withheld: true` and no figures (never zeros).
 */
export const audienceFigures = z.object({
  withheld: z.literal(false),
  listeners: comparedFigure,
  /** Milliseconds listened (every ended session of a counted listener that heard something). */
  listeningMs: comparedFigure,
  /** Average share of the track heard per play, 0 to 1. */
  averageShareHeard: comparedFigure,
  /** Share of plays that heard at least COMPLETION_SHARE of the track, 0 to 1. */
  completionRate: comparedFigure,
  /** Plays and distinct listeners per bucket over the period. */
  series: z.array(playsPoint),
  sources: z.array(sourceCount),
  /** Plays with a toy connected, and their share of plays (0 to 1). */
  toyPlays: z.number().int(),
  toyShare: z.number(),
});
export const withheldFigures = z.object({
  withheld: z.literal(true),
  /** Why: fewer than this many distinct listeners in the period. */
  minListeners: z.literal(MIN_LISTENERS),
});
export const audience = z.discriminatedUnion('withheld', [audienceFigures, withheldFigures]);
export type Audience = z.infer<typeof audience>;

export const fileInsightsResponse = z.object({
  file: z.object({
    id: z.number().int(),
    uuid: z.string(),
    name: z.string(),
    /** Milliseconds. */
    duration: z.number().int(),
    uploaderId: z.number().int(),
  }),
  period: insightsPeriodRange,
  /** Counted plays (opted-out listeners left out), shown whatever the number of listeners. */
  plays: comparedFigure,
  audience,
  /**
   * The share of plays that heard each of RETENTION_BINS equal parts of the track (0 to 1), in order;
   * null when withheld (fewer than MIN_LISTENERS listeners in the period).
   */
  retention: z.array(z.number()).nullable(),
  /** For tier-locked files: plays by the tier the listener held then; null when not locked or withheld. */
  tiers: z.array(tierCount).nullable(),
  /** Public playlists holding the file (how many, and the first few by id). */
  playlists: z.object({
    count: z.number().int(),
    items: z.array(z.object({ id: z.number().int(), uuid: z.string(), name: z.string() })),
  }),
});
export type FileInsightsResponse = z.infer<typeof fileInsightsResponse>;

export const catalogueFile = z.object({
  id: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  plays: z.number().int(),
  /** Plays in the previous period, for the trend. */
  previousPlays: z.number().int(),
});

export const catalogueInsightsResponse = z.object({
  creator: z.object({ id: z.number().int(), username: z.string() }),
  period: insightsPeriodRange,
  /** Files the creator uploaded (all of them, public or not). */
  fileCount: z.number().int(),
  plays: comparedFigure,
  /** Over all the creator's files: distinct listeners count once. */
  audience,
  /** The creator's files with the most plays in the period (TOP_FILES), most first, ties by id. */
  topFiles: z.array(catalogueFile),
});
export type CatalogueInsightsResponse = z.infer<typeof catalogueInsightsResponse>;

export const listeningDay = z.object({
  /** YYYY-MM-DD in the listener's time zone. */
  day: z.string(),
  /** Credited listening, whole minutes (rounded down). */
  minutes: z.number().int(),
});

export const streakRun = z.object({
  /** First and last day (YYYY-MM-DD) of a run of consecutive days with at least one minute listened. */
  from: z.string(),
  to: z.string(),
  days: z.number().int(),
});

export const listeningInsightsResponse = z.object({
  /** The listener's time zone, in which the days are counted. */
  timezone: z.string(),
  /** First and last day of the calendar (LISTENING_CALENDAR_DAYS days ending today). */
  from: z.string(),
  to: z.string(),
  /** Only days with listening, in order. */
  days: z.array(listeningDay),
  totalMinutes: z.number().int(),
  /** The account's current streak and its best run. */
  streak: z.object({ current: z.number().int(), longest: z.number().int() }),
  /** Runs of consecutive listening days within the calendar, latest first (at most 20). */
  streakHistory: z.array(streakRun),
  level: z.object({
    level: z.number().int(),
    current: z.number().int(),
    next: z.number().int(),
    fraction: z.number(),
  }),
  /** The listener's most played files, all time (TOP_FILES). Files they can no longer see are left out. */
  topFiles: z.array(
    z.object({
      id: z.number().int(),
      uuid: z.string(),
      name: z.string(),
      plays: z.number().int(),
      listeningMs: z.number(),
    }),
  ),
  /** Triggers trained by the files they played, by plays (most first, at most 20). */
  trainedTriggers: z.array(z.object({ id: z.number().int(), name: z.string(), plays: z.number().int() })),
  /** Training plans the listener started: days done of the plan's days. */
  plans: z.array(
    z.object({
      id: z.number().int(),
      uuid: z.string(),
      name: z.string(),
      /** Days done (position - 1). */
      done: z.number().int(),
      playlistCount: z.number().int(),
    }),
  ),
  /** Whether the listener opted out of being counted in creators' insights (PUT /api/user insightsOptOut). */
  insightsOptOut: z.boolean(),
});
export type ListeningInsightsResponse = z.infer<typeof listeningInsightsResponse>;

export const siteDay = z.object({
  day: z.string(),
  activeListeners: z.number().int(),
  signUps: z.number().int(),
  uploads: z.number().int(),
  messages: z.number().int(),
  reportsOpened: z.number().int(),
  reportsClosed: z.number().int(),
});

export const siteInsightsResponse = z.object({
  period: insightsPeriodRange,
  /**
   * One point per bucket (the bucket's first day). Active listeners: signed-in listeners active on a
   * day (their own day); a week's point and the totals are the average daily active listeners over
   * the bucket's or period's days (rounded to whole listeners), not distinct listeners over the span.
   */
  series: z.array(siteDay),
  totals: z.object({
    activeListeners: comparedFigure,
    signUps: comparedFigure,
    uploads: comparedFigure,
    messages: comparedFigure,
    reportsOpened: comparedFigure,
    reportsClosed: comparedFigure,
  }),
  /**
   * Now: reports still open, files, and bytes of the files' stored audio (the audio only: attachments,
   * peaks and unfinished uploads are not counted; a file from before sizes were kept counts once the
   * library analysis at start has measured it).
   */
  openReports: z.number().int(),
  storageBytes: z.number().int(),
  fileCount: z.number().int(),
  /** Server errors (5xx) this process counted since it started (as /metrics counts them). */
  errors: z.number().int(),
});
export type SiteInsightsResponse = z.infer<typeof siteInsightsResponse>;

export const insightsApi = {
  file: defineRoute(insightsRoutes.file, {
    tags: ['insights'],
    summary: "One file's insights (its uploader, or staff)",
    description:
      'Counted plays of the file in the period (UTC days ending today) and the previous period of the same ' +
      'length, and, from 5 distinct listeners in the period on, its audience: listeners, listening time, ' +
      'average share heard, completion rate, plays and listeners per day or week, sources, toy share, ' +
      'the retention curve and, for tier-locked files, plays by tier. Below 5 listeners those are withheld ' +
      '(`audience.withheld: true`, `retention: null`, `tiers: null`). Aggregates only, never who listened; ' +
      'listeners who opted out are not counted. Figures come from rollups kept as sessions end. ' +
      '401 signed out; 404 for a file the viewer cannot see; 403 for a visible file of someone else ' +
      '(administrators may read any).',
    params: insightsParams,
    query: insightsQuery,
    responses: {
      200: fileInsightsResponse,
      400: errorResponse,
      401: errorResponse,
      403: errorResponse,
      404: errorResponse,
    },
  }),
  catalogue: defineRoute(insightsRoutes.catalogue, {
    tags: ['insights'],
    summary: "A creator's whole catalogue (yourself, or anyone for staff)",
    description:
      'Totals over every file the user uploaded, the audience (withheld below 5 distinct listeners) and ' +
      'the top files by plays with their previous-period plays. 401 signed out; 403 for another user ' +
      'unless administrator; 404 for an unknown user.',
    params: insightsParams,
    query: insightsQuery,
    responses: {
      200: catalogueInsightsResponse,
      400: errorResponse,
      401: errorResponse,
      403: errorResponse,
      404: errorResponse,
    },
  }),
  listening: defineRoute(insightsRoutes.listening, {
    tags: ['insights'],
    summary: 'Your listening: minutes per day for a year, streaks, level, most played, triggers, plans',
    description: 'Only the signed-in user’s own figures (401 signed out).',
    responses: { 200: listeningInsightsResponse, 401: errorResponse },
  }),
  site: defineRoute(insightsRoutes.site, {
    tags: ['insights'],
    summary: 'Site dashboard (administrators)',
    description:
      'Per day or week: average daily active listeners, sign-ups, uploads, messages, reports opened and closed; ' +
      'totals against the previous period; open reports, stored audio bytes, files and server errors now. ' +
      '401 signed out, 403 unless administrator.',
    query: insightsQuery,
    responses: { 200: siteInsightsResponse, 400: errorResponse, 401: errorResponse, 403: errorResponse },
  }),
};
