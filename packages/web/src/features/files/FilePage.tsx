import type { AudioFile } from '@mesmer/shared/api/files';
import { canEditFile } from '@mesmer/shared/domain/file-rules';
import { canManageRoles } from '@mesmer/shared/domain/permissions';
import { useQuery } from '@tanstack/react-query';
import { Lock, Pencil, Play } from 'lucide-react';
import { useState } from 'react';
import { Navigate, type Params, useParams } from 'react-router';
import { useCurrentUser } from '../../api/auth.ts';
import { fileByUuidQuery } from '../../api/files.ts';
import { ApiError } from '../../lib/api-client.ts';
import { FileActions } from '../../library/FileActions.tsx';
import { FileDetails, fileTypeName } from '../../library/FileDetails.tsx';
import { useFeatureSlots } from '../../library/feature-slots.tsx';
import { ReportButton } from '../../library/ReportButton.tsx';
import { ScriptView } from '../../library/ScriptView.tsx';
import { useCensor } from '../../library/useCensor.ts';
import { play } from '../../player/index.ts';
import { Card, ErrorState, LoadingState, usePageTitle } from '../../ui/index.ts';
import { FileEditor } from './edit/FileEditor.tsx';
import { FileWaveform } from './edit/Waveform.tsx';
import page from './files.module.css';

/** What the page shows first: fetched with its module, before the app's first render (app/routes.tsx). */
export const firstQueries = ({ uuid = '' }: Params) => [fileByUuidQuery(uuid)];

/** /file/{uuid}: one file's page, the public link to it; its uploader and staff edit it here. */
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
  return <FileView key={file.data.id} file={file.data} name={name} />;
}

/** View mode, or edit mode for the uploader and WRITE_ALL_FILES holders (file-rules canEditFile). */
function FileView({ file: f, name }: { file: AudioFile; name: string }) {
  const { user } = useCurrentUser();
  const [editing, setEditing] = useState(false);
  const editor = user ? { id: user.id, roles: user.roles.map((r) => r.name) } : null;
  const mayEdit = canEditFile(editor, f);
  // Insights: the file's uploader and administrators (the server decides; this only hides the panel).
  const mayViewInsights = !!editor && (editor.id === f.uploaderId || canManageRoles(editor));
  const { FileInsights } = useFeatureSlots();

  return (
    <div className={page.fileLayout}>
      <Card>
        <p className={page.eyebrow}>{fileTypeName(f.fileType)}</p>
        <div className={page.fileHead}>
          <h1>{name}</h1>
          <div className={page.fileHeadActions}>
            {f.isLocked ? (
              <span className={page.lockedBadge}>
                <Lock size={16} aria-hidden /> Locked
              </span>
            ) : (
              <button
                type="button"
                className="btn btn-primary"
                onClick={() => play({ files: [f], startIndex: 0, source: fileSource() })}
              >
                <Play size={18} aria-hidden /> Play
              </button>
            )}
            {mayEdit && !editing && (
              <button type="button" className="btn btn-ghost" onClick={() => setEditing(true)}>
                <Pencil size={16} aria-hidden /> Edit
              </button>
            )}
            {user && !mayEdit && <ReportButton subjectType="file" subjectId={f.id} />}
          </div>
        </div>
        <FileWaveform fileId={f.id} />
        {editing && editor ? (
          <FileEditor file={f} editor={editor} onClose={() => setEditing(false)} />
        ) : (
          <>
            <FileDetails file={f} />
            <FileActions file={f} panelHeading="h2" />
            <ScriptView file={f} heading="h2" className={page.script} />
            {mayViewInsights && <FileInsights fileId={f.id} />}
          </>
        )}
      </Card>
    </div>
  );
}

/**
 * Where a play from the file page comes from (insights): a page opened straight from a link (the
 * first entry of this tab's history, as the router counts it) is a shared link; else the file page.
 */
function fileSource(): 'file-page' | 'shared-link' {
  const state = window.history.state as { idx?: number } | null;
  return state?.idx === 0 ? 'shared-link' : 'file-page';
}
