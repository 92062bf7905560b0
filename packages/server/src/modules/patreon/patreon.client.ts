import { z } from 'zod';
import type { PatreonConfig } from '../../config.ts';
import { AppError, BadRequest, Forbidden } from '../../platform/errors.ts';

/**
 * Patreon's API v2 over HTTP (docs: /work/shared/reference/integrations.md, Patreon). Answers are
 * read leniently (JSON:API: `data`, `included`, joined by type and id) and reduced to what the
 * memberships need.
 */

/** Patreon did not answer, or answered something unusable: try again later. */
export class PatreonUnavailable extends AppError {
  constructor() {
    super(502, 'Patreon could not be reached. Please try again in a moment.');
  }
}

/** Patreon no longer accepts our tokens for this user (they removed the app, or the tokens ran out). */
export class PatreonAuthLost extends Error {}

/**
 * The token endpoint refused the site itself (`invalid_client`, or any error but `invalid_grant`):
 * a configuration error (a changed client secret), never a reason to drop a user's link.
 */
export class PatreonMisconfigured extends AppError {
  constructor(readonly oauthError: string) {
    super(503, 'Patreon linking is not working on this site right now. Please try again later.');
  }
}

export interface PatreonTokens {
  accessToken: string;
  refreshToken: string;
  /** Seconds the access token lasts from now (the service dates it with its clock). */
  expiresIn: number;
  scope: string;
}

export interface PatreonTier {
  id: string;
  title: string | null;
  amountCents: number | null;
}

/** One membership of the user, as identity and webhooks describe it. */
export interface PatreonMember {
  campaignId: string;
  campaignName: string | null;
  /** active_patron, declined_patron, former_patron, or null (never paid). */
  patronStatus: string | null;
  entitledTiers: PatreonTier[];
  /** When the next charge is due: the end of the period paid for (ISO date-time). */
  nextChargeDate: string | null;
  lastChargeDate: string | null;
  /** Paid, Declined, Pending, Refunded, Fraud, Deleted, Other. */
  lastChargeStatus: string | null;
  /** Months each charge pays for (1 monthly, 12 yearly). */
  pledgeCadence: number | null;
}

export interface PatreonIdentity {
  userId: string;
  fullName: string | null;
  members: PatreonMember[];
}

export interface PatreonCampaign {
  id: string;
  name: string | null;
  tiers: PatreonTier[];
}

const TIMEOUT_MS = 10_000;

const ref = z.object({ type: z.string(), id: z.string() });
const resource = z.object({
  type: z.string(),
  id: z.string(),
  attributes: z.record(z.string(), z.unknown()).optional(),
  relationships: z
    .record(z.string(), z.object({ data: z.union([ref, z.array(ref), z.null()]).optional() }).loose())
    .optional(),
});
type Resource = z.infer<typeof resource>;
const document = z.object({
  data: z.union([resource, z.array(resource)]),
  included: z.array(resource).optional(),
});

/** An OAuth error answer (RFC 6749 5.2). */
const tokenError = z.object({ error: z.string() }).loose();

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.number().nonnegative(),
  scope: z.string().optional(),
});

const str = (v: unknown) => (typeof v === 'string' ? v : null);
const num = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : null);

function related(r: Resource, name: string): z.infer<typeof ref>[] {
  const data = r.relationships?.[name]?.data;
  if (!data) return [];
  return Array.isArray(data) ? data : [data];
}

function lookup(included: Resource[]) {
  const byKey = new Map(included.map((r) => [`${r.type}:${r.id}`, r]));
  return (type: string, id: string) => byKey.get(`${type}:${id}`);
}

function tierOf(id: string, found: Resource | undefined): PatreonTier {
  return {
    id,
    title: str(found?.attributes?.title),
    amountCents: num(found?.attributes?.amount_cents),
  };
}

const campaignName = (c: Resource | undefined) =>
  str(c?.attributes?.vanity) ?? str(c?.attributes?.creation_name);

/** A `member` resource with its campaign and entitled tiers, from a document's `included`. */
export function memberFrom(member: Resource, included: Resource[]): PatreonMember | null {
  const find = lookup(included);
  const [campaign] = related(member, 'campaign');
  if (!campaign) return null;
  return {
    campaignId: campaign.id,
    campaignName: campaignName(find('campaign', campaign.id)),
    patronStatus: str(member.attributes?.patron_status),
    entitledTiers: related(member, 'currently_entitled_tiers').map((t) => tierOf(t.id, find('tier', t.id))),
    nextChargeDate: str(member.attributes?.next_charge_date),
    lastChargeDate: str(member.attributes?.last_charge_date),
    lastChargeStatus: str(member.attributes?.last_charge_status),
    pledgeCadence: num(member.attributes?.pledge_cadence),
  };
}

/** The type of a JSON:API document's primary resource (`member` for member events), or null. */
export function resourceTypeOf(body: unknown): string | null {
  const data = (body as { data?: unknown } | null)?.data;
  const type = data && typeof data === 'object' ? (data as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type : null;
}

/** A webhook body (a member event), or null when it is not one. */
export function parseMemberEvent(body: unknown): { patreonUserId: string; member: PatreonMember } | null {
  const parsed = document.safeParse(body);
  if (!parsed.success || Array.isArray(parsed.data.data) || parsed.data.data.type !== 'member') return null;
  const data = parsed.data.data;
  const [user] = related(data, 'user');
  const member = memberFrom(data, parsed.data.included ?? []);
  return user && member ? { patreonUserId: user.id, member } : null;
}

/**
 * `onMisconfigured` hears of every answer of the token endpoint that blames the site rather than
 * the user's grant.
 */
export function createPatreonClient(
  config: PatreonConfig,
  onMisconfigured: (err: PatreonMisconfigured) => void = () => {},
) {
  const api = (path: string) => `${config.baseUrl}${path}`;

  async function request(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch {
      throw new PatreonUnavailable();
    }
  }

  async function json(res: Response): Promise<unknown> {
    try {
      return await res.json();
    } catch {
      throw new PatreonUnavailable();
    }
  }

  /**
   * POST /api/oauth2/token. Only `invalid_grant` is about the code or refresh token sent (`refused`
   * says what that means); any other error (`invalid_client`: the client id or secret) is the site's.
   */
  async function token(form: Record<string, string>, refused: () => Error): Promise<PatreonTokens> {
    const res = await request(api('/api/oauth2/token'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        ...form,
        client_id: config.clientId,
        client_secret: config.clientSecret,
      }).toString(),
    });
    if (res.status === 400 || res.status === 401) {
      const answer = tokenError.safeParse(await res.json().catch(() => null));
      const error = answer.success ? answer.data.error : `HTTP ${res.status}`;
      if (error === 'invalid_grant') throw refused();
      const misconfigured = new PatreonMisconfigured(error);
      onMisconfigured(misconfigured);
      throw misconfigured;
    }
    if (!res.ok) throw new PatreonUnavailable();
    const parsed = tokenAnswer.safeParse(await json(res));
    if (!parsed.success) throw new PatreonUnavailable();
    return {
      accessToken: parsed.data.access_token,
      refreshToken: parsed.data.refresh_token,
      expiresIn: parsed.data.expires_in,
      scope: parsed.data.scope ?? '',
    };
  }

  /** GET with the user's access token: a 401 means the token is no good, a 403 a scope it lacks. */
  async function read(path: string, accessToken: string) {
    const res = await request(api(path), {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    });
    if (res.status === 401) throw new PatreonAuthLost();
    if (res.status === 403) {
      throw new Forbidden(
        'Patreon did not let us read that with your link. Link Patreon again as a creator to allow it.',
      );
    }
    if (!res.ok) throw new PatreonUnavailable();
    const parsed = document.safeParse(await json(res));
    if (!parsed.success) throw new PatreonUnavailable();
    return { data: parsed.data.data, included: parsed.data.included ?? [] };
  }

  return {
    /** Patreon's authorize page for a link that comes back with `state`. */
    authorizeUrl(state: string, scope: string): string {
      const url = new URL(`${config.baseUrl}/oauth2/authorize`);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: config.clientId,
        redirect_uri: config.redirectUrl,
        scope,
        state,
      }).toString();
      return url.toString();
    },

    /** The code from the redirect, for tokens; a code Patreon refuses is a 400 naming `authCode`. */
    exchangeCode(code: string): Promise<PatreonTokens> {
      return token(
        { grant_type: 'authorization_code', code, redirect_uri: config.redirectUrl },
        () => new BadRequest('authCode', 'Patreon did not accept this code. Please link your account again.'),
      );
    },

    /** New tokens for the refresh token (both change); PatreonAuthLost when it is refused. */
    refresh(refreshToken: string): Promise<PatreonTokens> {
      return token({ grant_type: 'refresh_token', refresh_token: refreshToken }, () => new PatreonAuthLost());
    },

    /** Who the token belongs to, with their memberships, entitled tiers and campaigns. */
    async identity(accessToken: string): Promise<PatreonIdentity> {
      const query = new URLSearchParams({
        include: 'memberships,memberships.currently_entitled_tiers,memberships.campaign',
        'fields[user]': 'full_name',
        'fields[member]':
          'patron_status,currently_entitled_amount_cents,last_charge_status,last_charge_date,next_charge_date,pledge_cadence',
        'fields[tier]': 'title,amount_cents',
        'fields[campaign]': 'creation_name,vanity',
      });
      const { data, included } = await read(`/api/oauth2/v2/identity?${query}`, accessToken);
      if (Array.isArray(data) || data.type !== 'user') throw new PatreonUnavailable();
      const find = lookup(included);
      const members = related(data, 'memberships')
        .map((m) => find('member', m.id))
        .filter((m) => m !== undefined)
        .map((m) => memberFrom(m, included))
        .filter((m) => m !== null);
      return { userId: data.id, fullName: str(data.attributes?.full_name), members };
    },

    /** The campaign the token's user runs, with its tiers; null when they run none. */
    async campaign(accessToken: string): Promise<PatreonCampaign | null> {
      const query = new URLSearchParams({
        include: 'tiers',
        'fields[campaign]': 'creation_name,vanity',
        'fields[tier]': 'title,amount_cents',
      });
      const { data, included } = await read(`/api/oauth2/v2/campaigns?${query}`, accessToken);
      const [campaign] = Array.isArray(data) ? data : [data];
      if (campaign?.type !== 'campaign') return null;
      const find = lookup(included);
      return {
        id: campaign.id,
        name: campaignName(campaign),
        tiers: related(campaign, 'tiers').map((t) => tierOf(t.id, find('tier', t.id))),
      };
    },
  };
}

export type PatreonClient = ReturnType<typeof createPatreonClient>;
