import { MUSIC_TABS, type MusicTab, musicTab, PAGE_SIZES } from '@mesmer/shared/domain/library-display';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { filesQuery } from '../../api/files.ts';
import { withParams } from '../../lib/search-params.ts';
import { usePageParam } from '../../lib/usePageParam.ts';
import styles from '../../library/library.module.css';
import { PagedTrackList } from '../../library/PagedTrackList.tsx';
import { SearchBox, SortSelect } from '../../library/SearchControls.tsx';
import { Card, Tabs, usePageTitle } from '../../ui/index.ts';

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
  const [pageOffset, setPageOffset] = usePageParam('page', PAGE_SIZES.files);

  /** Sets some parameters and starts again at page 1. */
  const update = (values: Record<string, string | null>, replace = false) =>
    setParams((current) => withParams(current, { ...values, page: null }), { replace });

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
          <SearchBox
            value={q}
            onCommit={(value) => update({ q: value }, true)}
            label="Search music"
            placeholder="Search with keywords"
          />
          <SortSelect
            options={SORTS}
            value={sort}
            onChange={(id) => update({ sort: id === 'date' ? null : id })}
          />
        </div>
        <PagedTrackList
          files={files}
          label="Music"
          loadingLabel="Loading music"
          errorMessage="The music could not be loaded."
          emptyText="No results found."
          pageOffset={pageOffset}
          pageSize={PAGE_SIZES.files}
          onPageChange={setPageOffset}
        />
      </Card>
    </>
  );
}
