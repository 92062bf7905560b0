import { describe, expect, it } from 'vitest';
import type { SelfUser } from '../api/users.ts';
import { AD_FREE_TIER_IDS, AD_ZONES, seesAds, zoneFor } from './ads.ts';

type Membership = SelfUser['memberships'][number];
const membership = (tierId: string, active = true): Membership => ({
  creatorName: 'Creator',
  tierName: 'Tier',
  tierId,
  active,
  cancelled: !active,
  lastVerified: null,
});

describe('ad zones', () => {
  it('are the 728×90 leaderboard and the 300×100 phone banner', () => {
    expect(AD_ZONES.desktop).toEqual({ kind: 'desktop', width: 728, height: 90 });
    expect(AD_ZONES.mobile).toEqual({ kind: 'mobile', width: 300, height: 100 });
  });

  it('picks the phone zone up to 768 px wide and the leaderboard above', () => {
    expect(zoneFor(320).kind).toBe('mobile');
    expect(zoneFor(768).kind).toBe('mobile');
    expect(zoneFor(769).kind).toBe('desktop');
    expect(zoneFor(1440).kind).toBe('desktop');
  });
});

describe('who sees ads', () => {
  it('defaults to the two ad-free tiers of the spec', () => {
    expect(AD_FREE_TIER_IDS).toEqual(['21902510', '21927318']);
  });

  it('shows ads to visitors and to users without an ad-free membership', () => {
    expect(seesAds(null)).toBe(true);
    expect(seesAds({ memberships: [] })).toBe(true);
    expect(seesAds({ memberships: [membership('999')] })).toBe(true);
  });

  it('hides ads for an active membership in either ad-free tier', () => {
    expect(seesAds({ memberships: [membership('21902510')] })).toBe(false);
    expect(seesAds({ memberships: [membership('999'), membership('21927318')] })).toBe(false);
  });

  it('shows ads again when the ad-free membership is no longer active', () => {
    expect(seesAds({ memberships: [membership('21902510', false)] })).toBe(true);
  });

  it('uses the configured tier list instead of the default', () => {
    expect(seesAds({ memberships: [membership('21902510')] }, ['42'])).toBe(true);
    expect(seesAds({ memberships: [membership('42')] }, ['42'])).toBe(false);
  });
});
