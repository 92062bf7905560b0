import { useQuery } from '@tanstack/react-query';
import { Link2, ListPlus, Lock, Play } from 'lucide-react';
import { useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { AddToPlaylist } from '../../components/AddToPlaylist.tsx';
import { absoluteUrl, copyLink } from '../../components/clipboard.ts';
import { FileDetails, fileTypeName } from '../../components/FileDetails.tsx';
import styles from '../../components/library.module.css';
import { useCensor } from '../../components/useCensor.ts';
import { ApiError } from '../../lib/api-client.ts';
import { play } from '../../player/index.ts';
import { Card, ErrorState, LoadingState, usePageTitle } from '../../ui/index.ts';
import { useCurrentUser } from '../auth/api.ts';
import { fileByUuidQuery } from './api.ts';
import page from './files.module.css';

/** /file/{uuid}: one file's page, the public link to it. */
export default function FilePage() {
  const { uuid = '' } = useParams();
  const { user } = useCurrentUser();
  const censor = useCensor();
  const file = useQuery(fileByUuidQuery(uuid));
  const [adding, setAdding] = useState(false);
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
        <div className={styles.popupActions}>
          {user && !f.isLocked && (
            <button
              type="button"
              className="btn btn-ghost btn-small"
              aria-expanded={adding}
              onClick={() => setAdding((a) => !a)}
            >
              <ListPlus size={16} aria-hidden /> Add to playlist
            </button>
          )}
          <button
            type="button"
            className="btn btn-ghost btn-small"
            onClick={() =>
              copyLink(absoluteUrl(`/file/${f.uuid}`), 'The file link was copied to your clipboard.')
            }
          >
            <Link2 size={16} aria-hidden /> Copy link
          </button>
        </div>
        {adding && user && (
          <div className={styles.addPanel}>
            <h2 className={styles.subheading}>Add to playlist</h2>
            <AddToPlaylist fileId={f.id} userId={user.id} />
          </div>
        )}
      </Card>
    </div>
  );
}
