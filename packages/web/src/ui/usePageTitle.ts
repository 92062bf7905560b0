import { pageTitle } from '@mesmer/shared/domain/site';
import { useEffect } from 'react';
import { SITE_NAME } from '../lib/site.ts';

/** Sets '{page} - {site name}' and the canonical link (from the given path or the current one). */
export function usePageTitle(page: string, canonicalPath?: string) {
  useEffect(() => {
    document.title = pageTitle(page, SITE_NAME);
    let link = document.querySelector<HTMLLinkElement>('link[rel="canonical"]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'canonical';
      document.head.appendChild(link);
    }
    link.href = new URL(canonicalPath ?? window.location.pathname, window.location.origin).toString();
  }, [page, canonicalPath]);
}
