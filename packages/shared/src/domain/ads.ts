/** Patreon tiers whose supporters see no advertising (AD_FREE_TIER_IDS overrides this list). */
export const AD_FREE_TIER_IDS: readonly string[] = ['21902510', '21927318'];

/** A viewport this wide or narrower is a phone: the mobile zone is used. */
export const MOBILE_MAX_WIDTH = 768;

export type AdZoneKind = 'desktop' | 'mobile';
export interface AdZoneSize {
  kind: AdZoneKind;
  width: number;
  height: number;
}

/** The two ad zones: a 728×90 leaderboard on desktop and a 300×100 banner on phones. */
export const AD_ZONES: Record<AdZoneKind, AdZoneSize> = {
  desktop: { kind: 'desktop', width: 728, height: 90 },
  mobile: { kind: 'mobile', width: 300, height: 100 },
};

/** The one zone that fits a viewport of this width. */
export function zoneFor(viewportWidth: number): AdZoneSize {
  return viewportWidth <= MOBILE_MAX_WIDTH ? AD_ZONES.mobile : AD_ZONES.desktop;
}

/**
 * Whether ads show for this user: not when any active membership is in an ad-free tier. A visitor
 * (null: the user query settled and nobody is signed in) has no membership, so sees ads.
 */
export function seesAds(
  user: { memberships: readonly { tierId: string; active: boolean }[] } | null,
  adFreeTierIds: readonly string[] = AD_FREE_TIER_IDS,
): boolean {
  if (!user) return true;
  return !user.memberships.some((m) => m.active && adFreeTierIds.includes(m.tierId));
}
