import { useQuery } from '@tanstack/react-query';
import { Lock, Play } from 'lucide-react';
import { Navigate, useParams } from 'react-router';
import { ApiError } from '../../lib/api-client.ts';
import { FileActions } from '../../library/FileActions.tsx';
import { FileDetails, fileTypeName } from '../../library/FileDetails.tsx';
import { useCensor } from '../../library/useCensor.ts';
import { play } from '../../player/index.ts';
import { Card, ErrorState, LoadingState, usePageTitle } from '../../ui/index.ts';
import { fileByUuidQuery } from './api.ts';
import page from './files.module.css';

/** /file/{uuid}: one file's page, the public link to it. */
export default function FilePage() {
  const { uuid = '' } = useParams();
  const censor = useCensor();
  const file = useQuery(fileByUuidQuery(uuid));
  const name = file.data
    ? censor.text(
        file.data.name,
        file.data.triggers.map((t) => t.name),
      )
    : 'File';
  usePageTitle(name);

  if (file.isPending) return <LoadingState label="Loading file" />;
  if (file.isError) {
    if (file.error instanceof ApiError && [400, 404].includes(file.error.status)) {
      return <Navigate to="/404" replace />;
    }
    return <ErrorState message="The file could not be loaded." onRetry={file.refetch} />;
  }
  if (!file.data) return <Navigate to="/404" replace />;
  const f = file.data;

  return (
    <div className={page.fileLayout}>
      <Card>
        <p className={page.eyebrow}>{fileTypeName(f.fileType)}</p>
        <div className={page.fileHead}>
          <h1>{name}</h1>
          {f.isLocked ? (
            <span className={page.lockedBadge}>
              <Lock size={16} aria-hidden /> Locked
            </span>
          ) : (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => play({ files: [f], startIndex: 0 })}
            >
              <Play size={18} aria-hidden /> Play
            </button>
          )}
        </div>
        <FileDetails file={f} />
        <FileActions file={f} panelHeading="h2" />
      </Card>
    </div>
  );
}
