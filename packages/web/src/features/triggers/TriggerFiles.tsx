import { PAGE_SIZES } from '@mesmer/shared/domain/library-display';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { TrackList } from '../../components/TrackList.tsx';
import { EmptyState, ErrorState, LoadingState, Pagination } from '../../ui/index.ts';
import { filesQuery } from '../files/api.ts';

/** Files that train (or use) a trigger, 16 per page. */
export function TriggerFiles({ triggerId, trains }: { triggerId: number; trains: boolean }) {
  const [pageOffset, setPageOffset] = useState(0);
  const files = useQuery(
    filesQuery({
      ...(trains ? { trainsTrigger: triggerId } : { trigger: triggerId }),
      pageSize: PAGE_SIZES.triggerFiles,
      pageOffset,
    }),
  );
  if (files.isPending) return <LoadingState label="Loading files" />;
  if (files.isError) return <ErrorState message="The files could not be loaded." onRetry={files.refetch} />;
  return (
    <>
      <TrackList
        label={trains ? 'Files that train this trigger' : 'Files that use this trigger'}
        files={files.data.files}
        numberOffset={pageOffset}
        empty={<EmptyState>No results found.</EmptyState>}
      />
      <Pagination
        pageOffset={pageOffset}
        pageSize={PAGE_SIZES.triggerFiles}
        totalItems={files.data.totalItems}
        onChange={setPageOffset}
      />
    </>
  );
}
