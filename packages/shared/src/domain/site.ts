// The settings' schema is in a module of its own: a page reading a cookie name must not load zod (decision 038).
export type { SiteSettings } from './site-settings.ts';

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

/** '{page} - {site name}', or the site name alone for a page without its own title. */
export function pageTitle(page: string, siteName: string): string {
  return page ? `${page} - ${siteName}` : siteName;
}
