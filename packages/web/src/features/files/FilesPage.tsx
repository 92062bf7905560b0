import type { SelfUser } from '@mesmer/shared/api/users';
import { FILE_SORT_OPTIONS, type FilesTab, PAGE_SIZES } from '@mesmer/shared/domain/library-display';
import { offsetOfPage, pageOfOffset } from '@mesmer/shared/domain/pagination';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { useCurrentUser, userCan } from '../../api/auth.ts';
import { filesQuery } from '../../api/files.ts';
import { usePageParam } from '../../lib/usePageParam.ts';
import styles from '../../library/library.module.css';
import { PagedTrackList } from '../../library/PagedTrackList.tsx';
import { FiltersToggle, SearchBox, SortSelect } from '../../library/SearchControls.tsx';
import { TrackList } from '../../library/TrackList.tsx';
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
import { FileFilters } from './FileFilters.tsx';
import page from './files.module.css';
import {
  changeFilesSearch,
  type FilesSearch,
  filesSearchQuery,
  readFilesSearch,
  writeFilesSearch,
} from './files-search.ts';

/** Only uploaders see it: the upload dialog's code stays off the page for everyone else. */
const MyUploads = lazy(() => import('./upload/MyUploads.tsx').then((m) => ({ default: m.MyUploads })));

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
          <SearchBox
            value={search.q}
            onCommit={(q) => change({ q }, true)}
            label="Search files"
            placeholder="Search with keywords"
          />
          <SortSelect options={FILE_SORT_OPTIONS} value={search.sort} onChange={(sort) => change({ sort })} />
          <FiltersToggle
            open={search.filtersOpen}
            controls="file-filters"
            onToggle={() => change({ filtersOpen: !search.filtersOpen })}
          />
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

/** The upload control, unfinished uploads and the uploader's own files, newest first, with their own page in the URL. */
function MyFiles() {
  const [pageOffset, setPageOffset] = usePageParam('mypage', PAGE_SIZES.files);
  const files = useQuery(filesQuery({ myFiles: true, pageSize: PAGE_SIZES.files, pageOffset }));

  return (
    <Card className={page.mine}>
      <SectionHeader title="My Files" />
      <Suspense fallback={null}>
        <MyUploads />
      </Suspense>
      <PagedTrackList
        files={files}
        label="My files"
        loadingLabel="Loading your files"
        errorMessage="Your files could not be loaded."
        emptyText="You haven't uploaded any files yet!"
        pageOffset={pageOffset}
        pageSize={PAGE_SIZES.files}
        onPageChange={setPageOffset}
      />
    </Card>
  );
}
