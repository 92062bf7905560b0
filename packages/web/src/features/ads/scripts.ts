/**
 * Adds `<script src>` for a third-party script once per page (never inline code). `data` becomes
 * data-* attributes, the way ad and analytics scripts read their settings.
 */
export function injectScriptOnce(id: string, src: string, data: Record<string, string | undefined> = {}) {
  if (document.getElementById(id)) return;
  const script = document.createElement('script');
  script.id = id;
  script.src = src;
  script.async = true;
  for (const [key, value] of Object.entries(data)) {
    if (value !== undefined) script.dataset[key] = value;
  }
  document.head.append(script);
}

/** Fired on window when an ad zone appears, so an already loaded ad script can fill it. */
export const AD_ZONE_EVENT = 'mesmer:ad-zone';
