import { useEffect } from 'react';

export const SITE_NAME = 'Mesmer';

/** Sets '{page} - Mesmer' and the canonical link (from the given path or the current one). */
export function usePageTitle(page: string, canonicalPath?: string) {
  useEffect(() => {
    document.title = page ? `${page} - ${SITE_NAME}` : SITE_NAME;
    let link = document.querySelector<HTMLLinkElement>('link[rel="canonical"]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'canonical';
      document.head.appendChild(link);
    }
    link.href = new URL(canonicalPath ?? window.location.pathname, window.location.origin).toString();
  }, [page, canonicalPath]);
}
