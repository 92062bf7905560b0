/**
 * What the page and the service worker agree on about kept files. The service
 * worker (packages/web/build/service-worker.ts) embeds these functions' source, so each one must
 * stand alone: no imports, no outside names, plain JavaScript once its types are gone.
 */

/** The Cache Storage cache that holds kept media and API answers. */
export const OFFLINE_CACHE = 'mesmer-offline';

/**
 * The cache key of a same-origin URL, or null when it is never kept. Media (/media/…) is keyed by
 * its path alone: its query carries an expiring signature and the listening session's token. An
 * API GET (/api/…) keeps its query, in sorted order, because the query names what was asked.
 */
export const offlineKey = (url: URL): string | null => {
  if (url.pathname.startsWith('/media/')) return url.pathname;
  if (!url.pathname.startsWith('/api/')) return null;
  const params = [...url.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = new URLSearchParams(params).toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
};

/**
 * A kept whole-file answer cut to the request's Range header (audio elements ask in ranges):
 * 206 with Content-Range, 416 for a range past the end, the whole answer without a (single) range.
 */
export const rangeAnswer = async (kept: Response, range: string | null): Promise<Response> => {
  const match = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return kept;
  const body = await kept.blob();
  const size = body.size;
  let start: number;
  let end: number;
  if (match[1] === '') {
    // bytes=-N: the last N bytes.
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) {
    return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${size}` } });
  }
  return new Response(body.slice(start, end + 1), {
    status: 206,
    headers: {
      'Content-Type': kept.headers.get('Content-Type') ?? 'application/octet-stream',
      'Content-Range': `bytes ${start}-${end}/${size}`,
      'Content-Length': String(end - start + 1),
      'Accept-Ranges': 'bytes',
    },
  });
};
