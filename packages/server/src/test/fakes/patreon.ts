// A stand-in for Patreon (API v2, OAuth 2; docs: /work/shared/reference/integrations.md, Patreon) for
// the API tests and the journeys. Its authorize page approves at once as the chosen fake user and
// sends the browser back with a code; the token endpoint exchanges codes and refresh tokens; the
// identity endpoint answers JSON:API with the user's members, tiers and campaigns (only the fields
// asked for, as Patreon does); the campaigns endpoint lists a creator's tiers. Tests change a
// user's memberships and send signed webhooks (the body is the member as it is now, whatever the
// event; the event is an unsigned header, as Patreon sends it). As Patreon, a cancelled patron
// (`cancel`) is a former_patron still entitled to their tiers until the paid period ends
// (`next_charge_date`); the token endpoint answers `invalid_client` to a wrong client secret and
// `invalid_grant` to a code or refresh token it does not know. Every request is kept for assertions.
//
// For development it also runs on its own (see README, "Patreon linking without Patreon"):
//   PATREON_CLIENT_ID=dev PATREON_CLIENT_SECRET=dev-secret node --import tsx packages/server/src/test/fakes/patreon.ts
import { createHmac, randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

export interface FakeTier {
  id: string;
  title: string;
  amountCents: number;
}

export interface FakeCampaign {
  id: string;
  /** The campaign's `creation_name` (and `vanity`). */
  name: string;
  tiers: FakeTier[];
}

/**
 * One membership of the fake user: `patron_status` and the tiers pledged to (entitled while the
 * patron is active, or cancelled within the paid period). Charge dates default, when the user is
 * added, to a monthly pledge charged 5 days ago.
 */
export interface FakeMembership {
  campaign: FakeCampaign;
  patronStatus: 'active_patron' | 'declined_patron' | 'former_patron' | null;
  tiers: FakeTier[];
  /** ISO date-times, as Patreon sends them. */
  lastChargeDate?: string | null;
  nextChargeDate?: string | null;
  /** Months per charge. */
  pledgeCadence?: number;
}

export interface FakePatreonUser {
  id: string;
  fullName: string;
  memberships: FakeMembership[];
  /** The campaign this user runs, when they are a creator. */
  campaign?: FakeCampaign;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  /** The form or JSON body as sent. */
  body: string;
}

export type WebhookEvent =
  | 'members:pledge:create'
  | 'members:pledge:update'
  | 'members:pledge:delete'
  | 'members:create'
  | 'members:update'
  | 'members:delete';

export interface FakePatreon {
  /** The base URL: PATREON_URL. */
  url: string;
  port: number;
  clientId: string;
  webhookSecret: string;
  /** Every request, in order. */
  requests: RecordedRequest[];
  /** The fake's users by Patreon id; change their memberships freely. */
  users: Map<string, FakePatreonUser>;
  /** Adds (or replaces) a user. */
  addUser(user: FakePatreonUser): FakePatreonUser;
  /** Who the authorize page approves as (the first user added, until set). */
  approveAs: string | null;
  /** The next authorize visit answers `error=access_denied` instead of a code. */
  denyNext: boolean;
  /** Lifetime of the access tokens handed out from now on, in seconds. */
  accessTokenSeconds: number;
  /** The client secret the token endpoint wants (change it to play an operator's mistake). */
  clientSecret: string;
  /** Patreon's clock (ms), for paid periods: tests point it at the server's test clock. */
  now: () => number;
  /**
   * The patron cancels, as on Patreon: former_patron at once, still entitled to the tiers until the
   * paid period ends (`periodEnds`, else the membership's next charge date).
   */
  cancel(userId: string, campaignId: string, periodEnds?: Date): FakeMembership;
  /** Every access token handed out so far stops working (as when it expires). */
  expireAccessTokens(): void;
  /** Every token of `userId` stops working, refresh tokens too (the user removed the app). */
  revoke(userId: string): void;
  /** Sends a signed webhook about `userId`'s membership of `campaignId` as it is now to `targetUrl`. */
  sendWebhook(
    targetUrl: string,
    event: WebhookEvent,
    userId: string,
    campaignId: string,
    opts?: { signature?: string },
  ): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

/** The hex HMAC-MD5 of `body` keyed with `secret`: Patreon's X-Patreon-Signature. */
export function patreonSignature(body: string | Buffer, secret: string): string {
  return createHmac('md5', secret).update(body).digest('hex');
}

/** The tiers Patreon says a membership is entitled to at `now`: none once a cancelled one's period ended. */
export function entitledTiers(m: FakeMembership, now: number): FakeTier[] {
  if (m.patronStatus !== 'former_patron') return m.tiers;
  const ends = m.nextChargeDate ? Date.parse(m.nextChargeDate) : Number.NaN;
  return ends > now ? m.tiers : [];
}

/** A member's attributes, every one Patreon has (identity answers pick the fields asked for). */
function memberAttributes(user: FakePatreonUser, m: FakeMembership | undefined, now: number) {
  const tiers = m ? entitledTiers(m, now) : [];
  const status = m?.patronStatus ?? null;
  return {
    patron_status: status,
    full_name: user.fullName,
    currently_entitled_amount_cents: tiers.reduce((sum, t) => sum + t.amountCents, 0),
    will_pay_amount_cents: status === 'active_patron' ? tiers.reduce((sum, t) => sum + t.amountCents, 0) : 0,
    last_charge_status: status === 'declined_patron' ? 'Declined' : m?.lastChargeDate ? 'Paid' : null,
    last_charge_date: m?.lastChargeDate ?? null,
    next_charge_date: m?.nextChargeDate ?? null,
    pledge_cadence: m?.pledgeCadence ?? null,
  };
}

/**
 * A webhook's body: the member as JSON:API as it is at `now` (every event carries the member's
 * current state), with its user, campaign and tiers included.
 */
export function memberEvent(user: FakePatreonUser, campaignId: string, now = Date.now()) {
  const membership = user.memberships.find((m) => m.campaign.id === campaignId);
  const tiers = membership ? entitledTiers(membership, now) : [];
  return {
    data: {
      type: 'member',
      id: memberId(user.id, campaignId),
      attributes: memberAttributes(user, membership, now),
      relationships: {
        user: { data: { type: 'user', id: user.id } },
        campaign: { data: { type: 'campaign', id: campaignId } },
        currently_entitled_tiers: { data: tiers.map((t) => ({ type: 'tier', id: t.id })) },
      },
    },
    included: [
      { type: 'user', id: user.id, attributes: { full_name: user.fullName } },
      ...(membership ? [campaignResource(membership.campaign, ['creation_name', 'vanity'])] : []),
      ...tiers.map((t) => tierResource(t, ['title', 'amount_cents'])),
    ],
  };
}

const memberId = (userId: string, campaignId: string) => `member-${userId}-${campaignId}`;

function pick(attributes: Record<string, unknown>, fields: string[] | undefined) {
  return Object.fromEntries(Object.entries(attributes).filter(([k]) => fields?.includes(k)));
}

function tierResource(t: FakeTier, fields?: string[]) {
  return {
    type: 'tier',
    id: t.id,
    attributes: pick({ title: t.title, amount_cents: t.amountCents }, fields),
  };
}

function campaignResource(c: FakeCampaign, fields?: string[]) {
  return { type: 'campaign', id: c.id, attributes: pick({ creation_name: c.name, vanity: c.name }, fields) };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

interface Grant {
  userId: string;
  scope: string;
}

/** Starts the fake on `port` (0: any free port) on 127.0.0.1. */
export async function startFakePatreon(
  opts: { port?: number; clientId?: string; clientSecret?: string; webhookSecret?: string } = {},
): Promise<FakePatreon> {
  const clientId = opts.clientId ?? 'fake-client';
  const clientSecret = opts.clientSecret ?? 'fake-client-secret';
  const webhookSecret = opts.webhookSecret ?? 'fake-webhook-secret';
  const codes = new Map<string, Grant & { redirectUri: string }>();
  const accessTokens = new Map<string, Grant & { expiresAt: number }>();
  const refreshTokens = new Map<string, Grant>();
  const requests: RecordedRequest[] = [];
  const token = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;

  function issue(grant: Grant) {
    const access = token('access');
    const refresh = token('refresh');
    accessTokens.set(access, { ...grant, expiresAt: Date.now() + fake.accessTokenSeconds * 1000 });
    refreshTokens.set(refresh, grant);
    return {
      access_token: access,
      refresh_token: refresh,
      expires_in: fake.accessTokenSeconds,
      scope: grant.scope,
      token_type: 'Bearer',
    };
  }

  function bearer(req: IncomingMessage): Grant | null {
    const header = req.headers.authorization ?? '';
    const grant = header.startsWith('Bearer ') ? accessTokens.get(header.slice(7)) : undefined;
    return grant && grant.expiresAt > Date.now() ? grant : null;
  }

  /** The identity answer: only the includes and fields asked for. */
  function identity(user: FakePatreonUser, query: URLSearchParams) {
    const include = new Set((query.get('include') ?? '').split(',').filter(Boolean));
    const fields = (type: string) => query.get(`fields[${type}]`)?.split(',');
    const withMembers = [...include].some((i) => i === 'memberships' || i.startsWith('memberships.'));
    const included: unknown[] = [];
    const seen = new Set<string>();
    const add = (resource: { type: string; id: string }) => {
      if (seen.has(`${resource.type}:${resource.id}`)) return;
      seen.add(`${resource.type}:${resource.id}`);
      included.push(resource);
    };
    if (withMembers) {
      for (const m of user.memberships) {
        add({
          type: 'member',
          id: memberId(user.id, m.campaign.id),
          attributes: pick(memberAttributes(user, m, fake.now()), fields('member')),
          relationships: {
            currently_entitled_tiers: {
              data: entitledTiers(m, fake.now()).map((t) => ({ type: 'tier', id: t.id })),
            },
            campaign: { data: { type: 'campaign', id: m.campaign.id } },
          },
        } as { type: string; id: string });
        if (include.has('memberships.currently_entitled_tiers')) {
          for (const t of entitledTiers(m, fake.now())) add(tierResource(t, fields('tier')));
        }
        if (include.has('memberships.campaign')) add(campaignResource(m.campaign, fields('campaign')));
      }
    }
    if (include.has('campaign') && user.campaign) add(campaignResource(user.campaign, fields('campaign')));
    return {
      data: {
        type: 'user',
        id: user.id,
        attributes: pick({ full_name: user.fullName }, fields('user')),
        relationships: {
          ...(withMembers && {
            memberships: {
              data: user.memberships.map((m) => ({ type: 'member', id: memberId(user.id, m.campaign.id) })),
            },
          }),
          ...(include.has('campaign') && {
            campaign: { data: user.campaign ? { type: 'campaign', id: user.campaign.id } : null },
          }),
        },
      },
      included,
      links: { self: `${fake.url}/api/oauth2/v2/user/${user.id}` },
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readBody(req);
    requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body,
    });
    const q = url.searchParams;

    if (req.method === 'GET' && url.pathname === '/oauth2/authorize') {
      const redirectUri = q.get('redirect_uri');
      if (q.get('client_id') !== clientId || q.get('response_type') !== 'code' || !redirectUri) {
        res.writeHead(400, { 'content-type': 'text/plain' });
        return res.end('Bad authorize request: client_id, response_type=code and redirect_uri are required.');
      }
      const back = new URL(redirectUri);
      const state = q.get('state');
      if (state !== null) back.searchParams.set('state', state);
      const userId = fake.approveAs ?? fake.users.keys().next().value ?? null;
      if (fake.denyNext || userId === null) {
        fake.denyNext = false;
        back.searchParams.set('error', 'access_denied');
      } else {
        const code = token('code');
        codes.set(code, { userId, scope: q.get('scope') ?? '', redirectUri });
        back.searchParams.set('code', code);
      }
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }

    if (req.method === 'POST' && url.pathname === '/api/oauth2/token') {
      const form = new URLSearchParams(body);
      if (
        !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded') ||
        form.get('client_id') !== clientId ||
        form.get('client_secret') !== fake.clientSecret
      ) {
        return send(res, 401, { error: 'invalid_client' });
      }
      if (form.get('grant_type') === 'authorization_code') {
        const grant = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (!grant || grant.redirectUri !== form.get('redirect_uri')) {
          return send(res, 400, { error: 'invalid_grant' });
        }
        return send(res, 200, issue({ userId: grant.userId, scope: grant.scope }));
      }
      if (form.get('grant_type') === 'refresh_token') {
        const grant = refreshTokens.get(form.get('refresh_token') ?? '');
        if (!grant) return send(res, 400, { error: 'invalid_grant' });
        refreshTokens.delete(form.get('refresh_token') ?? '');
        return send(res, 200, issue(grant));
      }
      return send(res, 400, { error: 'unsupported_grant_type' });
    }

    if (req.method === 'GET' && url.pathname === '/api/oauth2/v2/identity') {
      const grant = bearer(req);
      const user = grant && fake.users.get(grant.userId);
      if (!grant || !user) return send(res, 401, { errors: [{ code_name: 'Unauthorized', status: '401' }] });
      return send(res, 200, identity(user, q));
    }

    if (req.method === 'GET' && url.pathname === '/api/oauth2/v2/campaigns') {
      const grant = bearer(req);
      const user = grant && fake.users.get(grant.userId);
      if (!grant || !user) return send(res, 401, { errors: [{ code_name: 'Unauthorized', status: '401' }] });
      if (!grant.scope.split(' ').includes('campaigns')) {
        return send(res, 403, { errors: [{ code_name: 'Forbidden', detail: 'Missing scope campaigns' }] });
      }
      const fields = (type: string) => q.get(`fields[${type}]`)?.split(',');
      const withTiers = (q.get('include') ?? '').split(',').includes('tiers');
      const campaign = user.campaign;
      return send(res, 200, {
        data: campaign
          ? [
              {
                ...campaignResource(campaign, fields('campaign')),
                relationships: withTiers
                  ? { tiers: { data: campaign.tiers.map((t) => ({ type: 'tier', id: t.id })) } }
                  : {},
              },
            ]
          : [],
        included: campaign && withTiers ? campaign.tiers.map((t) => tierResource(t, fields('tier'))) : [],
      });
    }

    send(res, 404, { errors: [{ code_name: 'NotFound', status: '404' }] });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => send(res, 500, { error: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const fake: FakePatreon = {
    url: `http://127.0.0.1:${port}`,
    port,
    clientId,
    clientSecret,
    webhookSecret,
    requests,
    users: new Map(),
    approveAs: null,
    denyNext: false,
    accessTokenSeconds: 3600,
    now: () => Date.now(),
    addUser(user) {
      const day = 24 * 60 * 60 * 1000;
      for (const m of user.memberships) {
        if (m.patronStatus !== 'active_patron' || m.lastChargeDate !== undefined) continue;
        const charged = new Date(fake.now() - 5 * day);
        const next = new Date(charged);
        next.setUTCMonth(next.getUTCMonth() + (m.pledgeCadence ?? 1));
        m.lastChargeDate = charged.toISOString();
        m.nextChargeDate ??= next.toISOString();
        m.pledgeCadence ??= 1;
      }
      fake.users.set(user.id, user);
      return user;
    },
    cancel(userId, campaignId, periodEnds) {
      const m = fake.users.get(userId)?.memberships.find((x) => x.campaign.id === campaignId);
      if (!m) throw new Error(`The fake Patreon has no membership of ${userId} in ${campaignId}.`);
      m.patronStatus = 'former_patron';
      if (periodEnds) m.nextChargeDate = periodEnds.toISOString();
      return m;
    },
    expireAccessTokens() {
      for (const grant of accessTokens.values()) grant.expiresAt = 0;
    },
    revoke(userId) {
      for (const map of [accessTokens, refreshTokens] as Map<string, Grant>[]) {
        for (const [key, grant] of map) if (grant.userId === userId) map.delete(key);
      }
    },
    async sendWebhook(targetUrl, event, userId, campaignId, opts = {}) {
      const user = fake.users.get(userId);
      if (!user) throw new Error(`The fake Patreon has no user ${userId}.`);
      const body = JSON.stringify(memberEvent(user, campaignId, fake.now()));
      const res = await fetch(targetUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-patreon-event': event,
          'x-patreon-signature': opts.signature ?? patreonSignature(body, webhookSecret),
        },
        body,
      });
      return { status: res.status, body: await res.text() };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

/** The demo library's Mesmer campaign (tiers 21902510 Supporter and 21927318 Devotee). */
export const DEMO_CAMPAIGN: FakeCampaign = {
  id: '8120001',
  name: 'Mesmer',
  tiers: [
    { id: '21902510', title: 'Supporter', amountCents: 300 },
    { id: '21927318', title: 'Devotee', amountCents: 1000 },
  ],
};

// Run on its own: a fake Patreon for `npm run dev`, with one supporter of the demo campaign.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const fake = await startFakePatreon({
    port: Number(process.env.FAKE_PATREON_PORT ?? 3120),
    clientId: process.env.PATREON_CLIENT_ID ?? 'dev',
    clientSecret: process.env.PATREON_CLIENT_SECRET ?? 'dev-secret',
    webhookSecret: process.env.PATREON_WEBHOOK_SECRET ?? 'dev-webhook-secret',
  });
  fake.addUser({
    id: '5550001',
    fullName: 'Dev Supporter',
    memberships: [
      { campaign: DEMO_CAMPAIGN, patronStatus: 'active_patron', tiers: [DEMO_CAMPAIGN.tiers[0]] },
    ],
    campaign: undefined,
  });
  console.log(
    `Fake Patreon on ${fake.url} (client ${fake.clientId} / ${fake.clientSecret}, webhook secret ${fake.webhookSecret}).\n` +
      `Start the server with PATREON_URL=${fake.url} and the same client id, secret and webhook secret.`,
  );
}
