/**
 * What each page of the web app loads beyond the app's entry: its scripts and styles, by route
 * pattern ('/playlist/:uuid'). The web build writes it beside index.html (build/page-preloads.ts);
 * the server names the page's files in its HTML, so they load with the app instead of after it.
 */
export const PAGE_PRELOADS_FILE = 'page-preloads.json';

export interface PagePreload {
  scripts: string[];
  styles: string[];
}

export type PagePreloads = Record<string, PagePreload>;

/** The parameters of `pathname` as an address of `pattern` (':name' segments match any one segment), or undefined. */
function paramsOf(pattern: string, pathname: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = pathname.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, segment] of want.entries()) {
    if (segment.startsWith(':') && got[i] !== '') params[segment.slice(1)] = decodeSegment(got[i]);
    else if (segment !== got[i]) return undefined;
  }
  return params;
}

/** A segment as the router reads it: decoded, or as it is when it is not valid percent-encoding. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const parameterCount = (pattern: string) => pattern.split('/:').length - 1;

export interface PageAt {
  pattern: string;
  page: PagePreload;
  params: Record<string, string>;
}

/**
 * The page at `pathname`: its pattern, its files and the address's parameters, or undefined for an
 * address no page has. As in the router, a fixed segment wins over a parameter ('/playlist/generate'
 * over '/playlist/:uuid').
 */
export function pageAt(preloads: PagePreloads, pathname: string): PageAt | undefined {
  const matches = Object.keys(preloads)
    .map((pattern) => ({ pattern, params: paramsOf(pattern, pathname) }))
    .filter((m): m is { pattern: string; params: Record<string, string> } => m.params !== undefined)
    .sort((a, b) => parameterCount(a.pattern) - parameterCount(b.pattern));
  const [best] = matches;
  return best && { ...best, page: preloads[best.pattern] };
}
