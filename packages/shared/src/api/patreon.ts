import { z } from 'zod';
import { TEXT_LIMITS } from '../domain/limits.ts';
import { patreonRoutes } from '../routes/patreon.ts';
import { errorResponse, queryBool, text } from './common.ts';
import { defineRoute, noContent } from './contract.ts';
import { membership } from './users.ts';

/** What a listener's link asks Patreon for: who they are and what they support. */
export const PATREON_SCOPE = 'identity identity.memberships';
/** A creator's link also reads their own campaign and its tiers (the tier import). */
export const PATREON_CREATOR_SCOPE = `${PATREON_SCOPE} campaigns`;
/** How long a link started with GET /api/patreon/authorize may take to come back. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;

export const patreonAuthorizeQuery = z.object({
  /** true: also ask for the `campaigns` scope, so the tier import can read the creator's campaign. */
  creator: queryBool.optional(),
});
export const patreonAuthorizeResponse = z.object({ url: z.string() });

export const patreonTokenRequest = z.object({
  /** The `code` Patreon put in the redirect back to /patreon/oauth. */
  authCode: text(TEXT_LIMITS.token).min(1, 'is required'),
  /** The `state` Patreon sent back: the one GET /api/patreon/authorize put in the link. */
  state: text(TEXT_LIMITS.token).min(1, 'is required'),
});
export type PatreonTokenRequest = z.infer<typeof patreonTokenRequest>;

/** The signed-in user's link: never the tokens, which stay on the server. */
export const patreonStatus = z.object({
  patreonLinked: z.boolean(),
  patreonName: z.string().nullable(),
  memberships: z.array(membership),
});
export type PatreonStatus = z.infer<typeof patreonStatus>;

export const patreonTierImportRequest = z.object({
  /** Administrators only: import the campaign of this linked user instead of their own. */
  username: text(TEXT_LIMITS.username).trim().min(1, 'must not be empty').optional(),
});
export const patreonTierImportResponse = z.object({
  creatorName: z.string(),
  campaignId: z.string(),
  tiers: z.array(
    z.object({ id: z.string(), name: z.string(), amountCents: z.number().int(), rank: z.number().int() }),
  ),
});
export type PatreonTierImport = z.infer<typeof patreonTierImportResponse>;

const notConfigured =
  'Answers 503 when the site has no Patreon client configured (PATREON_CLIENT_ID), or when Patreon ' +
  'refuses the configured client (`invalid_client`: every link is kept, and the error is logged).';

export const patreonApi = {
  authorize: defineRoute(patreonRoutes.authorize, {
    tags: ['patreon'],
    summary: "Start linking Patreon: the URL of Patreon's authorize page",
    description:
      `Scope \`${PATREON_SCOPE}\` (with \`creator=true\` also \`campaigns\`). The URL carries a one-time ` +
      '`state` bound to this session that expires after 10 minutes. ' +
      notConfigured,
    query: patreonAuthorizeQuery,
    responses: { 200: patreonAuthorizeResponse, 400: errorResponse, 401: errorResponse, 503: errorResponse },
  }),
  token: defineRoute(patreonRoutes.token, {
    tags: ['patreon'],
    summary: 'Finish linking: exchange the code Patreon sent back and read the memberships',
    description:
      'The `state` must be the one handed to this session by GET /api/patreon/authorize within 10 minutes, ' +
      'used once (403 otherwise). The tokens are kept on the server only. Memberships in known tiers are ' +
      'stored and unlock files at once. 400 names `authCode` when Patreon refuses the code; 502 when ' +
      `Patreon cannot be reached. ${notConfigured}`,
    body: patreonTokenRequest,
    responses: {
      200: patreonStatus,
      400: errorResponse,
      401: errorResponse,
      403: errorResponse,
      429: errorResponse,
      502: errorResponse,
      503: errorResponse,
    },
  }),
  refresh: defineRoute(patreonRoutes.refresh, {
    tags: ['patreon'],
    summary: 'My Patreon link, with the memberships read again from Patreon',
    description:
      'Renews the access token with the refresh token when it has expired. When Patreon no longer accepts ' +
      'the link (`invalid_grant`), the link and its memberships are removed and the answer is 409 (link ' +
      'again). Not linked: ' +
      `\`patreonLinked: false\`. ${notConfigured}`,
    responses: {
      200: patreonStatus,
      401: errorResponse,
      409: errorResponse,
      429: errorResponse,
      502: errorResponse,
      503: errorResponse,
    },
  }),
  disconnect: defineRoute(patreonRoutes.disconnect, {
    tags: ['patreon'],
    summary: 'Disconnect Patreon: forget the link and clear my memberships',
    description: `Locked files lock again at once. Not linked is fine too (204). ${notConfigured}`,
    responses: { 204: noContent, 401: errorResponse, 503: errorResponse },
  }),
  webhook: defineRoute(patreonRoutes.webhook, {
    tags: ['patreon'],
    summary: "Patreon's webhook: a member's pledge was created, changed or deleted",
    description:
      'Patreon calls this (events `members:pledge:create|update|delete`, `members:create|update|delete`). ' +
      'The raw body must carry `X-Patreon-Signature`, the hex HMAC-MD5 of the body keyed with ' +
      'PATREON_WEBHOOK_SECRET (403 otherwise). The member in the signed body says what changed, never the ' +
      'unsigned `X-Patreon-Event` header: an active patron’s entitled tiers unlock; a cancelled patron keeps ' +
      'them until the paid period ends (`next_charge_date`); a lapsed pledge locks at once. A body already ' +
      'acted on changes nothing (204). Other resources are ignored (204). 503 without a webhook secret.',
    responses: { 204: noContent, 400: errorResponse, 403: errorResponse, 503: errorResponse },
  }),
  importTiers: defineRoute(patreonRoutes.importTiers, {
    tags: ['patreon'],
    summary: "Import my Patreon campaign's tiers (creators), or a linked creator's (administrators)",
    description:
      'Reads the campaign of the linked Patreon account and stores each tier (id, name, price) as a ' +
      'membership tier of the creator, ranked by price (1 the cheapest), so files can be locked to them. ' +
      '403 when the caller has no linked Patreon account with a campaign, or names another user without ' +
      `being an Administrator; 404 no such user; 409 that user has not linked Patreon. ${notConfigured}`,
    body: patreonTierImportRequest,
    responses: {
      200: patreonTierImportResponse,
      400: errorResponse,
      401: errorResponse,
      403: errorResponse,
      404: errorResponse,
      409: errorResponse,
      429: errorResponse,
      502: errorResponse,
      503: errorResponse,
    },
  }),
};
