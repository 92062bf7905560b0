import type { AudioFile } from '@mesmer/shared/api/files';
import { formatDuration } from '@mesmer/shared/domain/durations';
import { FILE_SEARCH_DEBOUNCE_MS } from '@mesmer/shared/domain/library-display';
import { TEXT_LIMITS } from '@mesmer/shared/domain/limits';
import { useQuery } from '@tanstack/react-query';
import { Plus, Search } from 'lucide-react';
import { useId, useState } from 'react';
import { filesQuery } from '../../api/files.ts';
import { useDebouncedValue } from '../../lib/useDebouncedValue.ts';
import styles from '../../library/library.module.css';
import { useCensor } from '../../library/useCensor.ts';
import { EmptyState, ErrorState, Spinner } from '../../ui/index.ts';

/**
 * Searches files by keyword (most played first) and offers each result to pick:
 * the playlist editor's Add Files (8 results) and the include-files filter (12).
 */
export function FileSearchPicker({
  label,
  pageSize,
  onPick,
  excludeIds = [],
  placeholder = 'Search files...',
}: {
  label: string;
  pageSize: number;
  onPick: (file: AudioFile) => void;
  excludeIds?: readonly number[];
  placeholder?: string;
}) {
  const inputId = useId();
  const censor = useCensor();
  const [text, setText] = useState('');
  const searchQuery = useDebouncedValue(text.trim(), FILE_SEARCH_DEBOUNCE_MS);
  const results = useQuery({
    ...filesQuery({ searchQuery, sortType: 'playcount', sortDirection: 'desc', pageSize }),
    enabled: searchQuery.length > 0,
  });
  const shown = results.data?.files.filter((f) => !excludeIds.includes(f.id)) ?? [];

  return (
    <div className={styles.picker}>
      <label htmlFor={inputId} className="field-label">
        {label}
      </label>
      <div className={styles.searchBox}>
        <Search size={16} aria-hidden />
        <input
          id={inputId}
          className="input"
          type="search"
          maxLength={TEXT_LIMITS.search}
          value={text}
          placeholder={placeholder}
          onChange={(e) => setText(e.target.value)}
        />
        {results.isFetching && <Spinner size={16} label="Searching" />}
      </div>
      {searchQuery.length > 0 &&
        (results.isError ? (
          <ErrorState message="The search failed." onRetry={results.refetch} />
        ) : results.data && shown.length === 0 ? (
          <EmptyState>No results found.</EmptyState>
        ) : (
          <ul className={styles.pickList} aria-label={`${label} results`}>
            {shown.map((file) => (
              <li key={file.id}>
                <button type="button" className={styles.pickItem} onClick={() => onPick(file)}>
                  <span className={styles.pickName}>
                    {censor.text(
                      file.name,
                      file.triggers.map((t) => t.name),
                    )}
                  </span>
                  <span className="muted">
                    {file.author.username} · {formatDuration(file.duration)}
                  </span>
                  <Plus size={18} aria-label="Add" />
                </button>
              </li>
            ))}
          </ul>
        ))}
    </div>
  );
}
