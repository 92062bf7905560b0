import { z } from 'zod';

/** The HttpOnly cookie that holds the session token. */
export const SESSION_COOKIE = 'token';
/** Readable companion cookie (value: the user id, no secret) so other tabs notice sign-in and sign-out. */
export const SESSION_MARKER_COOKIE = 'mesmer_session';
/**
 * Readable cookie ('true') set beside the 18+ confirmation in localStorage, so the server can leave the
 * 18+ gate's markup out of the page it sends. The web app itself goes by localStorage.
 */
export const AGE_CONFIRMED_COOKIE = 'ageConfirmed';

/**
 * Operator settings (SITE_NAME, WIKI_URL, CONTACT_EMAIL, ads, analytics, Patreon linking, Lovense pairing)
 * the server writes into index.html at run time, in `<meta name="mesmer-site">`, so one build serves any
 * deployment.
 */
export const SITE_SETTINGS_META = 'mesmer-site';
export const siteSettings = z.object({
  siteName: z.string().min(1),
  wikiUrl: z.url(),
  contactEmail: z.email(),
  /** Only when AD_NETWORK_SCRIPT_URL is set: the ad script, its zone ids and the ad-free tiers. */
  ads: z
    .object({
      scriptUrl: z.url(),
      desktopZone: z.string().optional(),
      mobileZone: z.string().optional(),
      adFreeTierIds: z.array(z.string()),
    })
    .optional(),
  /** Only when ANALYTICS_SCRIPT_URL is set. */
  analytics: z.object({ scriptUrl: z.url(), siteId: z.string().optional() }).optional(),
  /**
   * True when a Patreon client is configured (PATREON_CLIENT_ID): the account page offers linking.
   * Absent otherwise, and then the web app makes no Patreon call (they would answer 503).
   */
  patreonLinking: z.boolean().optional(),
  /** True when Lovense's Standard API is configured (LOVENSE_DEVELOPER_TOKEN); absent: no Lovense call. */
  lovensePairing: z.boolean().optional(),
});
export type SiteSettings = z.infer<typeof siteSettings>;

/** '{page} - {site name}', or the site name alone for a page without its own title. */
export function pageTitle(page: string, siteName: string): string {
  return page ? `${page} - ${siteName}` : siteName;
}
