/**
 * My Files' uploads: the Upload control and the list of uploads not yet made into files, each
 * with its state (receiving with the chunks held, processing, ready, failed) and Resume, Finish
 * or Cancel.
 */
import type { UploadStatus } from '@mesmer/shared/api/uploads';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import { useState } from 'react';
import { uploadsQuery } from '../../../api/files.ts';
import { Spinner, toast } from '../../../ui/index.ts';
import { useCancelUpload } from './api.ts';
import { UploadDialog, type UploadStart } from './UploadDialog.tsx';
import styles from './upload.module.css';

/** The Upload button and the uploads list, sharing one dialog. */
export function MyUploads() {
  const [start, setStart] = useState<UploadStart | null>(null);
  const uploads = useQuery(uploadsQuery);
  const cancel = useCancelUpload();
  const client = useQueryClient();
  const close = () => {
    setStart(null);
    client.invalidateQueries({ queryKey: uploadsQuery.queryKey });
  };

  return (
    <>
      <div className={styles.actions}>
        <button type="button" className="btn btn-primary" onClick={() => setStart({ kind: 'new' })}>
          <Upload size={16} aria-hidden /> Upload a file
        </button>
      </div>
      {uploads.isError && <p className="form-error">Your uploads could not be loaded.</p>}
      {uploads.data && uploads.data.length > 0 && (
        <ul className={styles.uploads} aria-label="Unfinished uploads">
          {uploads.data.map((u) => (
            <li key={u.uuid} className={styles.upload}>
              <div className={styles.uploadText}>
                <span className={styles.fileName}>{u.fileName}</span>
                <UploadState upload={u} />
              </div>
              {u.state === 'receiving' && (
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  aria-label={`Resume ${u.fileName}`}
                  onClick={() => setStart({ kind: 'resume', uuid: u.uuid, fileName: u.fileName })}
                >
                  Resume
                </button>
              )}
              {u.state === 'ready' && (
                <button
                  type="button"
                  className="btn btn-primary btn-small"
                  aria-label={`Finish ${u.fileName}`}
                  onClick={() => setStart({ kind: 'finish', uuid: u.uuid, fileName: u.fileName })}
                >
                  Finish
                </button>
              )}
              {u.state !== 'processing' && (
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  aria-label={`Cancel ${u.fileName}`}
                  disabled={cancel.isPending && cancel.variables === u.uuid}
                  onClick={() =>
                    cancel.mutate(u.uuid, {
                      onSuccess: () => toast('success', 'Upload cancelled.'),
                      onError: (err) => toast('error', 'The upload could not be cancelled.', err.message),
                    })
                  }
                >
                  Cancel
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <UploadDialog open={start !== null} start={start ?? undefined} onClose={close} />
    </>
  );
}

function UploadState({ upload }: { upload: UploadStatus }) {
  switch (upload.state) {
    case 'receiving':
      return (
        <span className={styles.uploadState}>
          Receiving: {upload.receivedChunks.length} of {upload.totalChunks} chunks received
        </span>
      );
    case 'processing':
      return (
        <span className={styles.uploadState}>
          <Spinner size={14} label="Processing" /> Processing
        </span>
      );
    case 'ready':
      return <span className={styles.uploadState}>Ready: add its details to publish it</span>;
    case 'failed':
      return <span className={styles.uploadFailed}>Failed: {upload.error ?? 'An error occurred.'}</span>;
  }
}
