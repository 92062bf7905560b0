import { PAGE_SIZES } from '@mesmer/shared/domain/library-display';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { filesQuery } from '../../api/files.ts';
import { PagedTrackList } from '../../library/PagedTrackList.tsx';

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
  return (
    <PagedTrackList
      files={files}
      label={trains ? 'Files that train this trigger' : 'Files that use this trigger'}
      loadingLabel="Loading files"
      errorMessage="The files could not be loaded."
      emptyText="No results found."
      pageOffset={pageOffset}
      pageSize={PAGE_SIZES.triggerFiles}
      onPageChange={setPageOffset}
    />
  );
}
