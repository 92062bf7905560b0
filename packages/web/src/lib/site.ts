import { SITE_SETTINGS_META, type SiteSettings } from '@mesmer/shared/domain/site';

/** For the Vite dev server, which serves index.html without the server's settings. */
const defaults: SiteSettings = {
  siteName: 'Mesmer',
  wikiUrl: 'https://wiki.mesmer.local',
  contactEmail: 'support@mesmer.local',
};

/** The operator's settings the server put into index.html (see SITE_SETTINGS_META). */
export function readSiteSettings(doc: Document): SiteSettings {
  const content = doc.querySelector(`meta[name="${SITE_SETTINGS_META}"]`)?.getAttribute('content');
  if (!content) return defaults;
  try {
    // Written by our server from its checked configuration: read as declared, like an API answer.
    const written: unknown = JSON.parse(content);
    return written && typeof written === 'object' && !Array.isArray(written)
      ? { ...defaults, ...(written as Partial<SiteSettings>) }
      : defaults;
  } catch {
    return defaults;
  }
}

const settings = readSiteSettings(document);
export const SITE_NAME = settings.siteName;
export const WIKI_URL = settings.wikiUrl;
export const CONTACT_EMAIL = settings.contactEmail;
/** The ad network and analytics scripts, when the operator configured them (otherwise undefined). */
export const ADS = settings.ads;
export const ANALYTICS = settings.analytics;
/** Whether the operator configured a Patreon client: linking is offered only then. */
export const PATREON_LINKING = settings.patreonLinking === true;
/** Whether the operator configured Lovense's Standard API: the Lovense calls are made only then. */
export const LOVENSE_PAIRING = settings.lovensePairing === true;

/** The account page's Patreon card anchor: the home page's re-link notice and locked files lead here. */
export const PATREON_SECTION_ID = 'patreon';
