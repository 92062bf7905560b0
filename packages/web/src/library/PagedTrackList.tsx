import type { ListFilesResponse } from '@mesmer/shared/api/files';
import type { UseQueryResult } from '@tanstack/react-query';
import { EmptyState, ErrorState, LoadingState, Pagination } from '../ui/index.ts';
import { TrackList } from './TrackList.tsx';

/** One page of files from GET /api/files: loading and error states, the track list, and the pagination under it. */
export function PagedTrackList({
  files,
  label,
  loadingLabel,
  errorMessage,
  emptyText,
  pageOffset,
  pageSize,
  onPageChange,
}: {
  files: UseQueryResult<ListFilesResponse>;
  /** What the list is, for screen readers. */
  label: string;
  loadingLabel: string;
  errorMessage: string;
  emptyText: string;
  pageOffset: number;
  pageSize: number;
  onPageChange: (pageOffset: number) => void;
}) {
  if (files.isPending) return <LoadingState label={loadingLabel} />;
  if (files.isError) return <ErrorState message={errorMessage} onRetry={files.refetch} />;
  return (
    <>
      <TrackList
        label={label}
        files={files.data.files}
        numberOffset={pageOffset}
        empty={<EmptyState>{emptyText}</EmptyState>}
      />
      <Pagination
        pageOffset={pageOffset}
        pageSize={pageSize}
        totalItems={files.data.totalItems}
        onChange={onPageChange}
      />
    </>
  );
}
