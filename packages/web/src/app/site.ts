/**
 * Operator settings the server puts in a `<meta name="mesmer-site">` tag of index.html
 * (WIKI_URL, CONTACT_EMAIL, SITE_NAME), so one build serves any deployment.
 */
interface SiteSettings {
  siteName: string;
  wikiUrl: string;
  contactEmail: string;
}

const defaults: SiteSettings = {
  siteName: 'Mesmer',
  wikiUrl: 'https://wiki.mesmer.local',
  contactEmail: 'support@mesmer.local',
};

function readSettings(): SiteSettings {
  const content =
    typeof document === 'undefined'
      ? null
      : document.querySelector('meta[name="mesmer-site"]')?.getAttribute('content');
  if (!content) return defaults;
  try {
    return { ...defaults, ...JSON.parse(content) };
  } catch {
    return defaults;
  }
}

const settings = readSettings();
export const SITE_NAME = settings.siteName;
export const WIKI_URL = settings.wikiUrl;
export const CONTACT_EMAIL = settings.contactEmail;
