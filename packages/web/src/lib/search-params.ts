/** A copy of the URL parameters with `values` written in; an empty or null value removes its parameter. */
export function withParams(params: URLSearchParams, values: Record<string, string | null>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(values)) {
    if (value) next.set(key, value);
    else next.delete(key);
  }
  return next;
}

/** A list's search after a change: a new search starts at page 1; paging and opening the filters keep the page. */
export function changePagedSearch<S extends { page: number }>(search: S, patch: Partial<S>): S {
  const next = { ...search, ...patch };
  const keepsPage = Object.keys(patch).every((k) => k === 'page' || k === 'filtersOpen');
  if (!keepsPage) next.page = patch.page ?? 1;
  return next;
}
