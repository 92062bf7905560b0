import { z } from 'zod';

/**
 * Operator settings the server writes into index.html at run time, in `<meta name="mesmer-site">`
 * (SITE_SETTINGS_META in ./site.ts).
 */
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
