import { find } from 'linkifyjs';
import type { ReactNode } from 'react';

/** The schemes a detected link may open; anything else stays plain text. */
const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

function safeHref(href: string): string | null {
  try {
    return SAFE_SCHEMES.has(new URL(href).protocol) ? href : null;
  } catch {
    return null;
  }
}

/**
 * A message's text as React text nodes (never HTML): links found by linkifyjs become <a> only
 * for http(s) and mailto; newlines stay (the container keeps white space).
 */
export function MessageText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const link of find(text)) {
    const href = safeHref(link.href);
    if (!href) continue;
    if (link.start > at) parts.push(text.slice(at, link.start));
    parts.push(
      <a key={link.start} href={href} target="_blank" rel="noopener noreferrer">
        {link.value}
      </a>,
    );
    at = link.end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}
