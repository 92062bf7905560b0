import type { SelfUser } from '@mesmer/shared/api/users';
import {
  FILE_SORT_OPTIONS,
  type FilesTab,
  PAGE_SIZES,
  parsePage,
} from '@mesmer/shared/domain/library-display';
import { offsetOfPage, pageOfOffset } from '@mesmer/shared/domain/pagination';
import { useQuery } from '@tanstack/react-query';
import { Mail, Search, SlidersHorizontal } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { FileFilters } from '../../components/FileFilters.tsx';
import styles from '../../components/library.module.css';
import { TrackList } from '../../components/TrackList.tsx';
import { useSearchText } from '../../components/useSearchText.ts';
import {
  Card,
  EmptyState,
  ErrorState,
  LoadingState,
  Pagination,
  SectionHeader,
  type TabItem,
  Tabs,
  usePageTitle,
} from '../../ui/index.ts';
import { useCurrentUser, userCan } from '../auth/api.ts';
import { filesQuery } from './api.ts';
import page from './files.module.css';
import {
  changeFilesSearch,
  type FilesSearch,
  filesSearchQuery,
  readFilesSearch,
  writeFilesSearch,
} from './files-search.ts';

const TABS: readonly TabItem<FilesTab>[] = [
  { id: 'hypnotic', label: 'Hypnotic' },
  { id: 'music', label: 'Music' },
];

function canUploadFiles(user: SelfUser | null): boolean {
  return (
    userCan(user, 'UPLOAD_ALL_FILES') ||
    userCan(user, 'UPLOAD_MUSIC_FILES') ||
    userCan(user, 'UPLOAD_PRIVATE_FILES')
  );
}

/** /files: search, sort, filter and page through files; every choice lives in the URL. */
export default function FilesPage() {
  usePageTitle('Files');
  const { user } = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const showLockedByDefault = !user?.hideLockedFiles;
  const search = readFilesSearch(params, showLockedByDefault);

  const change = (patch: Partial<FilesSearch>, replace = false) => {
    const next = writeFilesSearch(changeFilesSearch(search, patch), showLockedByDefault);
    // My Files keeps its own page.
    const myPage = params.get('mypage');
    if (myPage) next.set('mypage', myPage);
    setParams(next, { replace });
  };

  const { text, setText, commitNow } = useSearchText(search.q, (q) => change({ q }, true));

  const files = useQuery(filesQuery(filesSearchQuery(search)));

  return (
    <div className={page.layout}>
      <div className={page.header}>
        <h1>Files</h1>
        <p className={styles.lead}>
          Browse every hypnosis and music file. Play one, or add it to a playlist.
        </p>
      </div>

      <Card className={page.search}>
        <Tabs tabs={TABS} value={search.tab} onChange={(tab) => change({ tab })} label="File kind" />
        <div className={`${styles.toolbar} ${page.controls}`}>
          <div className={styles.searchBox}>
            <Search size={16} aria-hidden />
            <input
              className="input"
              type="search"
              aria-label="Search files"
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
            value={search.sort}
            onChange={(e) => change({ sort: e.target.value as FilesSearch['sort'] })}
          >
            {FILE_SORT_OPTIONS.map((o) => (
              <option key={o.id} value={o.id}>
                {o.label}
              </option>
            ))}
          </select>
          <button
            type="button"
            className={`btn btn-ghost ${styles.filterToggle}`}
            aria-expanded={search.filtersOpen}
            aria-controls="file-filters"
            onClick={() => change({ filtersOpen: !search.filtersOpen })}
          >
            <SlidersHorizontal size={16} aria-hidden /> Filters
          </button>
        </div>
        {search.filtersOpen && <FileFilters values={search} onChange={(patch) => change(patch)} />}
      </Card>

      <Card className={page.results}>
        <SectionHeader title={search.tab === 'music' ? 'Music' : 'Hypnotic files'} />
        {files.isPending ? (
          <LoadingState label="Loading files" />
        ) : files.isError ? (
          <ErrorState message="The files could not be loaded." onRetry={files.refetch} />
        ) : files.data.files.length === 0 ? (
          <EmptyState>No results found.</EmptyState>
        ) : (
          <div className={files.isPlaceholderData ? page.stale : undefined}>
            <p className={styles.resultsMeta}>
              {files.data.totalItems} {files.data.totalItems === 1 ? 'file' : 'files'}
            </p>
            <TrackList
              label="Files"
              files={files.data.files}
              numberOffset={offsetOfPage(search.page, PAGE_SIZES.files)}
            />
            <Pagination
              pageOffset={offsetOfPage(search.page, PAGE_SIZES.files)}
              pageSize={PAGE_SIZES.files}
              totalItems={files.data.totalItems}
              onChange={(offset) => change({ page: pageOfOffset(offset, PAGE_SIZES.files) })}
            />
          </div>
        )}
      </Card>

      {canUploadFiles(user) && <MyFiles />}
    </div>
  );
}

/** The uploader's own files, newest first, with their own page in the URL. */
function MyFiles() {
  const [params, setParams] = useSearchParams();
  const myPage = parsePage(params.get('mypage'));
  const pageOffset = offsetOfPage(myPage, PAGE_SIZES.files);
  const files = useQuery(filesQuery({ myFiles: true, pageSize: PAGE_SIZES.files, pageOffset }));
  const goTo = (offset: number) => {
    const next = new URLSearchParams(params);
    const p = pageOfOffset(offset, PAGE_SIZES.files);
    if (p > 1) next.set('mypage', String(p));
    else next.delete('mypage');
    setParams(next);
  };

  return (
    <Card className={page.mine}>
      <SectionHeader title="My Files" />
      <p className={`muted ${page.uploadNote}`}>
        <Mail size={16} aria-hidden /> Uploading is by e-mail request for now; see the About page.
      </p>
      {files.isPending ? (
        <LoadingState label="Loading your files" />
      ) : files.isError ? (
        <ErrorState message="Your files could not be loaded." onRetry={files.refetch} />
      ) : (
        <>
          <TrackList
            label="My files"
            files={files.data.files}
            numberOffset={pageOffset}
            empty={<EmptyState>You haven't uploaded any files yet!</EmptyState>}
          />
          <Pagination
            pageOffset={pageOffset}
            pageSize={PAGE_SIZES.files}
            totalItems={files.data.totalItems}
            onChange={goTo}
          />
        </>
      )}
    </Card>
  );
}
