import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  OAUTH_STATE_TTL_MS,
  PATREON_CREATOR_SCOPE,
  PATREON_SCOPE,
  type PatreonStatus,
  type PatreonTierImport,
  type PatreonTokenRequest,
} from '@mesmer/shared/api/patreon';
import { canManageRoles } from '@mesmer/shared/domain/permissions';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Config, PatreonConfig } from '../../config.ts';
import { type Db, withTransaction } from '../../db/client.ts';
import { requirePermission, type SessionUser } from '../../platform/access.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError, BadRequest, Conflict, Forbidden, NotFound } from '../../platform/errors.ts';
import { hashToken, newToken } from '../../platform/tokens.ts';
import {
  createPatreonClient,
  PatreonAuthLost,
  type PatreonClient,
  type PatreonIdentity,
  type PatreonMember,
  type PatreonMisconfigured,
  type PatreonTokens,
  parseMemberEvent,
  resourceTypeOf,
} from './patreon.client.ts';
import { createPatreonRepo, type PatreonLinkRow, type TierRow } from './patreon.repo.ts';

/** Memberships not read from Patreon for this long are read again (on the owner's GET /api/user). */
export const MEMBERSHIP_REFRESH_MS = 24 * 60 * 60 * 1000;
/** After a failed automatic refresh, the next try waits this long. */
const RETRY_AFTER_FAILURE_MS = 10 * 60 * 1000;
/** An access token this close to its end is renewed before use. */
const EXPIRY_MARGIN_MS = 60 * 1000;
/** A configuration error of the Patreon client is logged at most once in this long. */
export const CONFIG_ERROR_LOG_MS = 10 * 60 * 1000;
/** How often each process ends the memberships whose paid period is over. */
export const PAID_PERIOD_SWEEP_MS = 10 * 60 * 1000;
/** The longest a paid period may run from now, whatever a body says (a yearly pledge, and a week). */
const LONGEST_PAID_PERIOD_MS = 373 * 24 * 60 * 60 * 1000;
const TITLE_MAX = 200;

class PatreonNotConfigured extends AppError {
  constructor(what = 'Patreon linking') {
    super(503, `${what} is not configured on this site.`);
  }
}

const linkLost = () =>
  new Conflict('Patreon no longer accepts the link to your account. Please link Patreon again.');

/** Whether `signature` is the hex HMAC-MD5 of `body` keyed with `secret`, compared in constant time. */
export function validSignature(body: Buffer, signature: string | undefined, secret: string): boolean {
  if (!signature || !/^[0-9a-fA-F]{32}$/.test(signature)) return false;
  const expected = createHmac('md5', secret).update(body).digest();
  return timingSafeEqual(Buffer.from(signature, 'hex'), expected);
}

const cut = (title: string | null, id: string) => (title ?? `Tier ${id}`).slice(0, TITLE_MAX);

/**
 * The end of the period a member has paid for: the next charge's date, else the last paid charge
 * and the pledge's cadence (months). Null when neither says.
 */
export function paidThrough(member: PatreonMember, now: Date): Date | null {
  const date = (value: string | null) => {
    const time = value === null ? Number.NaN : Date.parse(value);
    return Number.isNaN(time) ? null : new Date(time);
  };
  let end = date(member.nextChargeDate);
  const last = date(member.lastChargeDate);
  if (!end && last && member.lastChargeStatus === 'Paid') {
    end = new Date(last);
    end.setUTCMonth(end.getUTCMonth() + Math.min(Math.max(member.pledgeCadence ?? 1, 1), 12));
  }
  if (!end) return null;
  return new Date(Math.min(end.getTime(), now.getTime() + LONGEST_PAID_PERIOD_MS));
}

/** Tiers by price (cheapest first, then by id): rank 1 is the lowest. */
function byPrice<T extends { id: string; amountCents: number | null }>(tiers: T[]): T[] {
  return [...tiers].sort((a, b) => (a.amountCents ?? 0) - (b.amountCents ?? 0) || a.id.localeCompare(b.id));
}

/**
 * Linking Patreon (docs/decisions/028-patreon-linking.md): the OAuth flow, memberships read from
 * Patreon's identity and kept current by webhooks and a refresh after 24 h, and creators' tier import.
 * Only active memberships unlock files (platform/access.repo.ts); this module only writes them.
 */
export type PatreonService = ReturnType<typeof createPatreonService>;

export function createPatreonService({
  db,
  clock,
  config: appConfig,
  log,
}: {
  db: Db;
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
}) {
  const repo = createPatreonRepo(db);
  const lastAttempt = new LRUCache<number, number>({ max: 10_000 });
  let client: PatreonClient | undefined;
  /** When a Patreon configuration error was last logged. */
  let configErrorLoggedAt: number | undefined;

  /** Loudly, once a while: every renewal fails the same way until an operator fixes the settings. */
  function misconfigured(err: PatreonMisconfigured) {
    const at = now().getTime();
    if (configErrorLoggedAt !== undefined && at - configErrorLoggedAt < CONFIG_ERROR_LOG_MS) return;
    configErrorLoggedAt = at;
    log.error(
      { patreonError: err.oauthError },
      'Patreon refused this site’s OAuth client: check PATREON_CLIENT_ID, PATREON_CLIENT_SECRET and ' +
        'PATREON_REDIRECT_URL. Every Patreon link is kept; memberships are not renewed until this is fixed.',
    );
  }

  function configured(): { config: PatreonConfig; client: PatreonClient } {
    const config = appConfig.patreon;
    if (!config) throw new PatreonNotConfigured();
    client ??= createPatreonClient(config, misconfigured);
    return { config, client };
  }

  const now = () => clock.now();
  const expiresAt = (tokens: PatreonTokens) => new Date(now().getTime() + tokens.expiresIn * 1000);
  const inTransaction = <T>(work: (r: ReturnType<typeof createPatreonRepo>) => Promise<T>) =>
    withTransaction(db, (tx) => work(createPatreonRepo(tx)));

  async function status(userId: number): Promise<PatreonStatus> {
    const [link, memberships] = await Promise.all([repo.linkOf(userId), repo.membershipsOf(userId)]);
    return {
      patreonLinked: link !== null,
      patreonName: link?.patreonName ?? null,
      memberships: memberships.map((m) => ({ ...m, lastVerified: m.lastVerified?.toISOString() ?? null })),
    };
  }

  /**
   * The ids of the member's entitled tiers that are known here: tiers already stored (their
   * campaign, title and price are brought up to date) and new tiers of a campaign already stored
   * (added under the same creator; the creator's import ranks them properly). Tiers of unknown
   * campaigns are left out: no file can be locked to them.
   */
  async function knownTiers(r: ReturnType<typeof createPatreonRepo>, member: PatreonMember) {
    const ids = member.entitledTiers.map((t) => t.id);
    const known = new Map((await r.tiersByIds(ids)).map((t) => [t.id, t]));
    for (const tier of member.entitledTiers) {
      const row = known.get(tier.id);
      if (!row) continue;
      await r.updateTier(tier.id, {
        campaignId: member.campaignId,
        title: tier.title ? cut(tier.title, tier.id) : row.title,
        amountCents: tier.amountCents ?? row.amountCents,
      });
    }
    const unknown = member.entitledTiers.filter((t) => !known.has(t.id));
    if (unknown.length === 0) return ids.filter((id) => known.has(id));
    const campaign = await r.tiersOfCampaign(member.campaignId);
    if (campaign.length === 0) return ids.filter((id) => known.has(id));
    const { creatorName, creatorUserId } = campaign[0];
    // Ranked with the dearest tier of the campaign it costs at least as much as (0 below them all):
    // a new tier never unlocks files of a tier that costs more.
    const rankFor = (amount: number | null) =>
      Math.max(
        0,
        ...campaign
          .filter((t) => amount !== null && t.amountCents !== null && t.amountCents <= amount)
          .map((t) => t.rank),
      );
    await r.insertTiers(
      unknown.map((t) => ({
        id: t.id,
        creatorName,
        creatorUserId,
        title: cut(t.title, t.id),
        rank: rankFor(t.amountCents),
        campaignId: member.campaignId,
        amountCents: t.amountCents,
      })),
    );
    return ids;
  }

  /**
   * One membership as Patreon reports it now (its meaning comes from the member's own fields, the
   * same in a webhook body and in an identity answer, so the two never disagree):
   * - `active_patron` with entitled tiers: those tiers are active; the user's other tiers of that
   *   campaign go (they moved to another tier);
   * - `former_patron` (cancelled) whose paid period has not ended: the tiers still entitled stay
   *   active, cancelled, until that period ends (`entitledUntil`);
   * - anything else: the campaign's tiers turn inactive, cancelled for a `former_patron`.
   */
  async function applyMember(
    r: ReturnType<typeof createPatreonRepo>,
    userId: number,
    member: PatreonMember,
    at: Date,
  ): Promise<string[]> {
    const tierIds = await knownTiers(r, member);
    const ofCampaign = (await r.membershipCampaignsOf(userId)).filter(
      (m) => m.campaignId === member.campaignId,
    );
    const others = ofCampaign.map((m) => m.tierId).filter((id) => !tierIds.includes(id));
    if (member.patronStatus === 'active_patron' && tierIds.length > 0) {
      for (const tierId of tierIds)
        await r.upsertMembership(userId, tierId, {
          active: true,
          cancelled: false,
          lastVerified: at,
          entitledUntil: null,
        });
      await r.deleteMemberships(userId, others);
      return tierIds;
    }
    const cancelled = member.patronStatus === 'former_patron';
    const until = cancelled ? paidThrough(member, at) : null;
    // Patreon keeps listing a cancelled patron's tiers as entitled while the paid period lasts.
    const paid = until !== null && until.getTime() > at.getTime();
    for (const tierId of tierIds)
      await r.upsertMembership(userId, tierId, {
        active: paid,
        cancelled,
        lastVerified: at,
        entitledUntil: paid ? until : null,
      });
    await r.updateMemberships(userId, others, {
      active: false,
      cancelled,
      lastVerified: at,
      entitledUntil: null,
    });
    return [...tierIds, ...others];
  }

  /** Every membership from an identity answer; memberships of campaigns it no longer lists turn inactive. */
  async function applyIdentity(
    r: ReturnType<typeof createPatreonRepo>,
    userId: number,
    identity: PatreonIdentity,
  ) {
    const at = now();
    const touched = new Set<string>();
    for (const member of identity.members) {
      for (const id of await applyMember(r, userId, member, at)) touched.add(id);
    }
    const gone = (await r.membershipCampaignsOf(userId))
      .map((m) => m.tierId)
      .filter((id) => !touched.has(id));
    await r.updateMemberships(userId, gone, { active: false, lastVerified: at, entitledUntil: null });
    await r.markVerified(userId, at);
  }

  /** An access token that works now: renewed (and stored) when it has expired. */
  async function accessTokenOf(link: PatreonLinkRow, force = false): Promise<PatreonLinkRow> {
    if (!force && link.expiresAt.getTime() > now().getTime() + EXPIRY_MARGIN_MS) return link;
    const tokens = await configured().client.refresh(link.refreshToken);
    const renewed = {
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresAt: expiresAt(tokens),
    };
    await repo.saveTokens(link.userId, renewed);
    return { ...link, ...renewed };
  }

  /** Reads the memberships again; PatreonAuthLost when Patreon refuses even a renewed token. */
  async function verify(link: PatreonLinkRow): Promise<void> {
    const { client } = configured();
    let current = await accessTokenOf(link);
    let identity: PatreonIdentity;
    try {
      identity = await client.identity(current.accessToken);
    } catch (err) {
      if (!(err instanceof PatreonAuthLost)) throw err;
      // Refused before its end (revoked, or Patreon's clock): renew once.
      current = await accessTokenOf(current, true);
      identity = await client.identity(current.accessToken);
    }
    await inTransaction((r) => applyIdentity(r, link.userId, identity));
  }

  return {
    /** Patreon's authorize URL, with a one-time state bound to this user and session. */
    async authorize(user: SessionUser, sessionToken: string | null, creator = false): Promise<string> {
      const { client } = configured();
      const state = newToken();
      const at = now();
      await repo.saveState(
        {
          stateHash: hashToken(state),
          userId: user.id,
          sessionHash: hashToken(sessionToken ?? ''),
          createdAt: at,
        },
        new Date(at.getTime() - OAUTH_STATE_TTL_MS),
      );
      return client.authorizeUrl(state, creator ? PATREON_CREATOR_SCOPE : PATREON_SCOPE);
    },

    /** Finishes a link: checks the state, exchanges the code, stores the tokens and the memberships. */
    async link(
      user: SessionUser,
      sessionToken: string | null,
      input: PatreonTokenRequest,
    ): Promise<PatreonStatus> {
      const { client } = configured();
      const state = await repo.takeState(hashToken(input.state));
      const at = now();
      if (
        !state ||
        state.userId !== user.id ||
        state.sessionHash !== hashToken(sessionToken ?? '') ||
        state.createdAt.getTime() < at.getTime() - OAUTH_STATE_TTL_MS
      ) {
        throw new Forbidden(
          'This Patreon link was not started here or has expired. Please press Link Patreon again.',
        );
      }
      const tokens = await client.exchangeCode(input.authCode);
      let identity: PatreonIdentity;
      try {
        identity = await client.identity(tokens.accessToken);
      } catch (err) {
        if (err instanceof PatreonAuthLost)
          throw new Forbidden('Patreon did not let us read your memberships.');
        throw err;
      }
      await inTransaction(async (r) => {
        // One Patreon account unlocks one account here: it moves from any other.
        for (const other of await r.usersLinkedTo(identity.userId))
          if (other !== user.id) await r.unlink(other);
        const before = await r.linkOf(user.id);
        if (before && before.patreonUserId !== identity.userId) await r.deleteAllMemberships(user.id);
        await r.saveLink({
          userId: user.id,
          patreonUserId: identity.userId,
          patreonName: identity.fullName?.slice(0, TITLE_MAX) ?? null,
          accessToken: tokens.accessToken,
          refreshToken: tokens.refreshToken,
          expiresAt: expiresAt(tokens),
          lastVerified: at,
          linkedAt: at,
        });
        await applyIdentity(r, user.id, identity);
      });
      return status(user.id);
    },

    /** GET /api/patreon: the memberships read again from Patreon (when linked). */
    async refresh(user: SessionUser): Promise<PatreonStatus> {
      configured();
      const link = await repo.linkOf(user.id);
      if (link) {
        try {
          await verify(link);
        } catch (err) {
          if (!(err instanceof PatreonAuthLost)) throw err;
          await inTransaction((r) => r.unlink(user.id));
          throw linkLost();
        }
      }
      return status(user.id);
    },

    /**
     * Reads the memberships again when they were last read MEMBERSHIP_REFRESH_MS ago (GET /api/user).
     * Never fails: when Patreon cannot be reached the memberships stay as they are and the next try
     * waits a while; when it refuses the link, the link goes.
     */
    async refreshIfStale(userId: number): Promise<void> {
      if (!appConfig.patreon) return;
      await repo.endPaidPeriods(now(), userId);
      const link = await repo.linkOf(userId);
      const at = now().getTime();
      if (!link || link.lastVerified.getTime() > at - MEMBERSHIP_REFRESH_MS) return;
      const tried = lastAttempt.get(userId);
      if (tried !== undefined && tried > at - RETRY_AFTER_FAILURE_MS) return;
      lastAttempt.set(userId, at);
      try {
        await verify(link);
        lastAttempt.delete(userId);
      } catch (err) {
        // Only a refused grant ends the link; a refused client (logged) or an outage keeps it.
        if (err instanceof PatreonAuthLost) await inTransaction((r) => r.unlink(userId));
      }
    },

    /** Ends every membership whose paid period is over (the periodic sweep); answers how many. */
    endPaidPeriods(): Promise<number> {
      return repo.endPaidPeriods(now());
    },

    /** DELETE /api/patreon: the link and every membership go. */
    async disconnect(user: SessionUser): Promise<void> {
      configured();
      await inTransaction((r) => r.unlink(user.id));
    },

    /**
     * POST /api/patreon/webhook, with the body exactly as sent. The signature covers the body only,
     * so the body alone says what changed (never the X-Patreon-Event header), and a body acted on
     * once is never acted on again (its SHA-256 is kept): a replay changes nothing.
     */
    async webhook(body: Buffer, signature: string | undefined): Promise<void> {
      const secret = appConfig.patreon?.webhookSecret;
      if (!secret) throw new PatreonNotConfigured('Patreon webhooks are');
      if (!validSignature(body, signature, secret))
        throw new Forbidden('The webhook signature does not match.');
      let document: unknown;
      try {
        document = JSON.parse(body.toString('utf8'));
      } catch {
        throw new BadRequest('body', 'must be JSON');
      }
      // Other resources (posts:publish) change no membership.
      if (resourceTypeOf(document) !== 'member') return;
      const parsed = parseMemberEvent(document);
      if (!parsed) throw new BadRequest('body', 'must be a Patreon member event');
      const digest = createHash('sha256').update(body).digest('hex');
      const at = now();
      await inTransaction(async (r) => {
        if (!(await r.recordDelivery(digest, at))) return;
        for (const userId of await r.usersLinkedTo(parsed.patreonUserId))
          await applyMember(r, userId, parsed.member, at);
      });
    },

    /** POST /api/patreon/tiers/import: the campaign's tiers, ranked by price, under the creator. */
    async importTiers(actor: SessionUser, username?: string): Promise<PatreonTierImport> {
      const { client } = configured();
      let target = { id: actor.id, username: actor.username };
      if (username !== undefined && username.toLowerCase() !== actor.username.toLowerCase()) {
        requirePermission(actor, canManageRoles, 'Only administrators import another creator’s tiers.');
        const found = await repo.userByUsername(username);
        if (!found) throw new NotFound('User not found.');
        target = found;
      }
      const link = await repo.linkOf(target.id);
      if (!link) {
        if (target.id !== actor.id) throw new Conflict('That user has not linked Patreon.');
        throw new Forbidden('Link your Patreon account first: the tiers come from your campaign.');
      }
      let campaign: Awaited<ReturnType<PatreonClient['campaign']>>;
      try {
        campaign = await client.campaign((await accessTokenOf(link)).accessToken);
      } catch (err) {
        if (err instanceof PatreonAuthLost) throw linkLost();
        throw err;
      }
      if (!campaign) throw new Forbidden('This Patreon account runs no campaign.');
      const campaignId = campaign.id;
      const creatorName = (
        (await repo.tiersOfCampaign(campaignId))[0]?.creatorName ??
        (await repo.tiersOwnedBy(target.id))[0]?.creatorName ??
        campaign.name ??
        link.patreonName ??
        target.username
      ).slice(0, TITLE_MAX);
      const rows: TierRow[] = byPrice(campaign.tiers).map((t, i) => ({
        id: t.id,
        creatorName,
        title: cut(t.title, t.id),
        rank: i + 1,
        campaignId,
        amountCents: t.amountCents ?? 0,
        creatorUserId: target.id,
      }));
      await inTransaction((r) => r.upsertTiers(rows));
      return {
        creatorName,
        campaignId,
        tiers: rows.map((t) => ({ id: t.id, name: t.title, amountCents: t.amountCents ?? 0, rank: t.rank })),
      };
    },
  };
}
