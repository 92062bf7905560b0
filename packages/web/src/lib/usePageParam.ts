import { parsePage } from '@mesmer/shared/domain/library-display';
import { offsetOfPage, pageOfOffset } from '@mesmer/shared/domain/pagination';
import { useSearchParams } from 'react-router';
import { withParams } from './search-params.ts';

/**
 * A list's page number kept in the URL under `key` (left out on page 1), read and set as the
 * item offset Pagination works with. Other parameters stay as they are.
 */
export function usePageParam(key: string, pageSize: number) {
  const [params, setParams] = useSearchParams();
  const pageOffset = offsetOfPage(parsePage(params.get(key)), pageSize);
  const setPageOffset = (offset: number) => {
    const page = pageOfOffset(offset, pageSize);
    setParams((current) => withParams(current, { [key]: page > 1 ? String(page) : null }));
  };
  return [pageOffset, setPageOffset] as const;
}
