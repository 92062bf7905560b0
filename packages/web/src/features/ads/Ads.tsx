import { MOBILE_MAX_WIDTH, seesAds, zoneFor } from '@mesmer/shared/domain/ads';
import type { SiteSettings } from '@mesmer/shared/domain/site';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { currentUserQuery } from '../../api/users.ts';
import { ADS, ANALYTICS } from '../../lib/site.ts';
import styles from './ads.module.css';
import { AD_ZONE_EVENT, injectScriptOnce } from './scripts.ts';

const PHONE_QUERY = `(max-width: ${MOBILE_MAX_WIDTH}px)`;

function subscribePhone(onChange: () => void) {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** The width zoneFor needs: at most 768 on a phone-sized viewport, wider otherwise; follows resizes. */
function useViewportWidth(): number {
  const isPhone = useSyncExternalStore(subscribePhone, () => window.matchMedia(PHONE_QUERY).matches);
  return isPhone ? MOBILE_MAX_WIDTH : MOBILE_MAX_WIDTH + 1;
}

interface AdsProps {
  ads?: SiteSettings['ads'];
  analytics?: SiteSettings['analytics'];
}

/**
 * Ads and analytics, both off unless configured. The analytics script loads once when set; the ad
 * zone that fits the viewport shows only once the user query answered and not for ad-free members,
 * and the ad script loads once, after the first zone is on the page.
 */
export function Ads({ ads = ADS, analytics = ANALYTICS }: AdsProps) {
  // Only an answer counts: while loading, or if the user could not be read, an ad-free member
  // might be signed in, so no ad.
  const self = useQuery(currentUserQuery);

  useEffect(() => {
    if (analytics) injectScriptOnce('mesmer-analytics', analytics.scriptUrl, { siteId: analytics.siteId });
  }, [analytics]);

  if (!ads || !self.isSuccess || !seesAds(self.data, ads.adFreeTierIds)) return null;
  return <AdZone ads={ads} />;
}

/** Tells an already loaded ad script about each zone put on the page (it fills the ones present at load). */
function announceZone(element: HTMLDivElement | null) {
  if (element) window.dispatchEvent(new CustomEvent(AD_ZONE_EVENT, { detail: element }));
}

function AdZone({ ads }: { ads: NonNullable<SiteSettings['ads']> }) {
  const zone = zoneFor(useViewportWidth());
  const zoneId = zone.kind === 'desktop' ? ads.desktopZone : ads.mobileZone;

  useEffect(() => {
    injectScriptOnce('mesmer-ads', ads.scriptUrl);
  }, [ads.scriptUrl]);

  return (
    <aside className={styles.wrap} aria-label="Advertisement">
      <div
        key={zone.kind}
        ref={announceZone}
        className={styles.zone}
        data-ad-zone={zoneId ?? zone.kind}
        data-ad-size={`${zone.width}x${zone.height}`}
        style={{ width: zone.width, height: zone.height }}
      />
    </aside>
  );
}
