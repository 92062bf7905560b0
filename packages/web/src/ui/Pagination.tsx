import {
  commitPageInput,
  offsetOfPage,
  pageOfOffset,
  showPagination,
  totalPages,
} from '@mesmer/shared/domain/pagination';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect, useState } from 'react';
import styles from './ui.module.css';

export interface PaginationProps {
  pageOffset: number;
  pageSize: number;
  totalItems: number;
  onChange: (pageOffset: number) => void;
}

/** Page-number input, 'of N', previous/next arrows; only when there is more than one page. */
export function Pagination({ pageOffset, pageSize, totalItems, onChange }: PaginationProps) {
  const page = pageOfOffset(pageOffset, pageSize);
  const pages = totalPages(totalItems, pageSize);
  const [input, setInput] = useState(String(page));
  useEffect(() => setInput(String(page)), [page]);

  if (!showPagination(totalItems, pageSize)) return null;

  const go = (p: number) => onChange(offsetOfPage(p, pageSize));
  /** An empty input commits nothing (null); leaving the field then shows the current page again. */
  const commit = (leaving: boolean) => {
    const next = commitPageInput(input, page, pages);
    if (next === null) {
      if (leaving) setInput(String(page));
      return;
    }
    setInput(String(next));
    if (next !== page) go(next);
  };

  return (
    <nav className={styles.pagination} aria-label="Pagination">
      <button
        type="button"
        className="icon-btn"
        aria-label="Previous page"
        disabled={page <= 1}
        onClick={() => go(page - 1)}
      >
        <ChevronLeft size={18} />
      </button>
      <input
        className={`input ${styles.pageInput}`}
        aria-label="Page"
        inputMode="numeric"
        value={input}
        onChange={(e) => setInput(e.target.value)}
        onBlur={() => commit(true)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(false);
        }}
      />
      <span className={styles.pageTotal}>of {pages}</span>
      <button
        type="button"
        className="icon-btn"
        aria-label="Next page"
        disabled={page >= pages}
        onClick={() => go(page + 1)}
      >
        <ChevronRight size={18} />
      </button>
    </nav>
  );
}
