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

/** Whether `pathname` is an address of `pattern`, whose ':name' segments match any one segment. */
function matches(pattern: string, pathname: string): boolean {
  const want = pattern.split('/');
  const got = pathname.split('/');
  return (
    want.length === got.length &&
    want.every((segment, i) => segment === got[i] || (segment.startsWith(':') && got[i] !== ''))
  );
}

const parameterCount = (pattern: string) => pattern.split('/:').length - 1;

/**
 * The files of the page at `pathname`, or undefined for an address no page has. As in the router,
 * a fixed segment wins over a parameter ('/playlist/generate' over '/playlist/:uuid').
 */
export function pagePreloadFor(preloads: PagePreloads, pathname: string): PagePreload | undefined {
  const [pattern] = Object.keys(preloads)
    .filter((p) => matches(p, pathname))
    .sort((a, b) => parameterCount(a) - parameterCount(b));
  return pattern === undefined ? undefined : preloads[pattern];
}
