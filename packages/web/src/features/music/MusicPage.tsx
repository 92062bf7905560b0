import {
  MUSIC_TABS,
  type MusicTab,
  musicTab,
  PAGE_SIZES,
  parsePage,
} from '@mesmer/shared/domain/library-display';
import { offsetOfPage, pageOfOffset } from '@mesmer/shared/domain/pagination';
import { useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useSearchParams } from 'react-router';
import styles from '../../components/library.module.css';
import { TrackList } from '../../components/TrackList.tsx';
import { useSearchText } from '../../components/useSearchText.ts';
import {
  Card,
  EmptyState,
  ErrorState,
  LoadingState,
  Pagination,
  Tabs,
  usePageTitle,
} from '../../ui/index.ts';
import { filesQuery } from '../files/api.ts';

const SORTS = [
  { id: 'date', label: 'Newest' },
  { id: 'playcount', label: 'Most played' },
] as const;

/** /music?type=all|nonai|ai: music files, searchable and paged; the tab is the type parameter. */
export default function MusicPage() {
  usePageTitle('Music');
  const [params, setParams] = useSearchParams();
  const tab = musicTab(params.get('type'));
  const q = params.get('q') ?? '';
  const sort = params.get('sort') === 'playcount' ? 'playcount' : 'date';
  const pageNumber = parsePage(params.get('page'));
  const pageOffset = offsetOfPage(pageNumber, PAGE_SIZES.files);

  /** Sets some parameters; anything but paging starts again at page 1. */
  const update = (values: Record<string, string | null>, replace = false) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(values)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        if (!('page' in values)) next.delete('page');
        return next;
      },
      { replace },
    );
  const { text, setText, commitNow } = useSearchText(q, (value) => update({ q: value }, true));

  const files = useQuery(
    filesQuery({
      fileTypes: [...tab.fileTypes],
      searchQuery: q || undefined,
      sortType: sort,
      sortDirection: 'desc',
      pageSize: PAGE_SIZES.files,
      pageOffset,
    }),
  );

  return (
    <>
      <div className={styles.pageHeader}>
        <div>
          <h1>Music</h1>
          <p className={styles.lead}>Background music and ambience, made by people or with AI.</p>
        </div>
      </div>
      <Card>
        <div className={styles.toolbar}>
          <Tabs
            tabs={MUSIC_TABS}
            value={tab.id}
            onChange={(type: MusicTab) => update({ type })}
            label="Music kind"
          />
          <div className={styles.searchBox}>
            <Search size={16} aria-hidden />
            <input
              className="input"
              type="search"
              aria-label="Search music"
              placeholder="Search with keywords"
              value={text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') commitNow();
              }}
            />
          </div>
          <select
            className={`select ${styles.sortSelect}`}
            aria-label="Sort by"
            value={sort}
            onChange={(e) => update({ sort: e.target.value === 'date' ? null : e.target.value })}
          >
            {SORTS.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        {files.isPending ? (
          <LoadingState label="Loading music" />
        ) : files.isError ? (
          <ErrorState message="The music could not be loaded." onRetry={files.refetch} />
        ) : (
          <>
            <TrackList
              label="Music"
              files={files.data.files}
              numberOffset={pageOffset}
              empty={<EmptyState>No results found.</EmptyState>}
            />
            <Pagination
              pageOffset={pageOffset}
              pageSize={PAGE_SIZES.files}
              totalItems={files.data.totalItems}
              onChange={(o) => {
                const p = pageOfOffset(o, PAGE_SIZES.files);
                update({ page: p > 1 ? String(p) : null });
              }}
            />
          </>
        )}
      </Card>
    </>
  );
}
