/** Pagination rules shared by every paged list. `pageOffset` counts items to skip. */

export function totalPages(totalItems: number, pageSize: number): number {
  return Math.max(1, Math.ceil(totalItems / pageSize));
}

/** 1-based page that an item offset falls on. */
export function pageOfOffset(pageOffset: number, pageSize: number): number {
  return Math.floor(pageOffset / pageSize) + 1;
}

export function offsetOfPage(page: number, pageSize: number): number {
  return (page - 1) * pageSize;
}

/** The control is shown only when there is more than one page. */
export function showPagination(totalItems: number, pageSize: number): boolean {
  return totalItems > pageSize;
}

/**
 * What a typed page input commits to: null for an empty input, the typed page when
 * it is a whole number between 1 and the last page, otherwise the current page (the
 * input resets).
 */
export function commitPageInput(input: string, currentPage: number, pages: number): number | null {
  const trimmed = input.trim();
  if (trimmed === '') return null;
  if (!/^\d+$/.test(trimmed)) return currentPage;
  const page = Number(trimmed);
  return page >= 1 && page <= pages ? page : currentPage;
}
