import type { Playlist } from '@mesmer/shared/api/playlists';
import { formatDuration } from '@mesmer/shared/domain/durations';
import { enabledDuration, expLevelName, firstEnabledIndex } from '@mesmer/shared/domain/library-display';
import { canUpload } from '@mesmer/shared/domain/permissions';
import { triggerSlug } from '@mesmer/shared/domain/triggers';
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, Eye, EyeOff, Link2, Pencil, Play, Vibrate } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, type Params, useNavigate, useParams } from 'react-router';
import { useCurrentUser } from '../../api/auth.ts';
import { playlistByUuidQuery } from '../../api/playlists.ts';
import { ApiError } from '../../lib/api-client.ts';
import { Section } from '../../library/Collapsible.tsx';
import { absoluteUrl, copyLink } from '../../library/clipboard.ts';
import { WarningsText } from '../../library/FileNotices.tsx';
import { KeepOffline } from '../../library/offline/index.ts';
import { ReportButton } from '../../library/ReportButton.tsx';
import { TrackList } from '../../library/TrackList.tsx';
import { useCensor } from '../../library/useCensor.ts';
import { play } from '../../player/index.ts';
import {
  Card,
  ConfirmPopup,
  ErrorState,
  LoadingState,
  SectionHeader,
  Tag,
  toast,
  usePageTitle,
} from '../../ui/index.ts';
import { useDeletePlaylist, useUpdatePlaylist } from './api.ts';
import {
  PlaylistAddFiles,
  PlaylistEditorActions,
  PlaylistEditorFields,
  PlaylistNameField,
  usePlaylistEditor,
} from './PlaylistEditor.tsx';
import page from './playlist.module.css';
import { RatingButtons } from './RatingButtons.tsx';

// Fetched even when the browser says it is offline: the service worker answers for a kept playlist.
const playlistPageQuery = (uuid: string) => ({
  ...playlistByUuidQuery(uuid),
  networkMode: 'offlineFirst' as const,
});

/** What the page shows first: fetched with its module, before the app's first render (app/routes.tsx). */
export const firstQueries = ({ uuid = '' }: Params) => [playlistPageQuery(uuid)];

/** /playlist/{uuid}: a 404 or an empty answer goes to /404. */
export default function PlaylistPage() {
  const { uuid = '' } = useParams();
  const playlist = useQuery(playlistPageQuery(uuid));
  usePageTitle(playlist.data?.name ?? 'Playlist');

  if (playlist.isPending) return <LoadingState label="Loading playlist" />;
  if (playlist.isError) {
    if (playlist.error instanceof ApiError && [400, 404].includes(playlist.error.status)) {
      return <Navigate to="/404" replace />;
    }
    return <ErrorState message="The playlist could not be loaded." onRetry={playlist.refetch} />;
  }
  if (!playlist.data) return <Navigate to="/404" replace />;
  return <PlaylistView key={playlist.data.id} playlist={playlist.data} />;
}

function PlaylistView({ playlist }: { playlist: Playlist }) {
  const navigate = useNavigate();
  const { user } = useCurrentUser();
  const censor = useCensor();
  const editor = usePlaylistEditor(playlist);
  const update = useUpdatePlaylist();
  const remove = useDeletePlaylist();
  const isOwner = user?.id === playlist.creator.id;
  // The editor's Add Files search is for uploaders; a track's popup adds for anyone signed in.
  const mayAddFiles = !!user && canUpload({ roles: user.roles.map((r) => r.name) });
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { draft } = editor;
  const files = draft?.files ?? playlist.files;
  const triggerNames = playlist.triggers.map((t) => t.name);
  const title = censor.text(playlist.name, triggerNames);
  const fileTags = [...new Map(playlist.files.flatMap((f) => f.tags).map((t) => [t.id, t])).values()];

  /** Outside edit mode the owner removes a track straight away (after the popup's confirmation). */
  const removeSaved = (index: number) => {
    const kept = playlist.files.filter((_, i) => i !== index);
    update.mutate(
      {
        id: playlist.id,
        fileIds: kept.map((f) => f.id),
        disabledFileIds: kept.filter((f) => f.disabled).map((f) => f.id),
      },
      {
        onSuccess: () => toast('success', 'Removed from playlist.'),
        onError: (err) => toast('error', 'The file could not be removed.', err.message),
      },
    );
  };

  const deletePlaylist = () =>
    remove.mutate(playlist.id, {
      onSuccess: () => {
        setConfirmDelete(false);
        navigate('/');
        toast('success', 'Playlist deleted!');
      },
      onError: (err) => {
        setConfirmDelete(false);
        toast('error', 'The playlist could not be deleted.', err.message);
      },
    });

  const startIndex = firstEnabledIndex(files);
  const playlistRef = { id: playlist.id, uuid: playlist.uuid, name: playlist.name };
  const source = playlist.isCore ? 'core-playlist' : 'community-playlist';

  return (
    <div className={page.layout}>
      <div className={page.info}>
        <Card>
          {draft ? (
            <PlaylistNameField editor={editor} draft={draft} />
          ) : (
            <h1 className={page.title}>{title}</h1>
          )}
          <p className={page.byline}>
            by{' '}
            <Link to={`/user/${encodeURIComponent(playlist.creator.username)}`}>
              {playlist.creator.username}
            </Link>
            <span aria-hidden> · </span>
            <span>{formatDuration(enabledDuration(files))}</span>
          </p>
          <div className={page.tags}>
            <Tag tone="accent">{expLevelName(draft?.expLevel ?? playlist.expLevel)}</Tag>
            {playlist.hapticsPercent > 0 && (
              <Tag tone="info" title="Share of files with haptics">
                <Vibrate size={12} aria-hidden /> {playlist.hapticsPercent}% haptics
              </Tag>
            )}
            {playlist.hasPatreonFiles && <Tag tone="warning">Patreon</Tag>}
            {isOwner &&
              ((draft?.isPublic ?? playlist.isPublic) ? (
                <Tag>
                  <Eye size={12} aria-hidden /> Public
                </Tag>
              ) : (
                <Tag>
                  <EyeOff size={12} aria-hidden /> Private
                </Tag>
              ))}
          </div>

          <div className={page.actions}>
            <button
              type="button"
              className="btn btn-primary"
              disabled={startIndex < 0}
              onClick={() => play({ files, startIndex, playlist: playlistRef, source })}
            >
              <Play size={18} aria-hidden /> Play
            </button>
            <button
              type="button"
              className="btn btn-ghost"
              onClick={() => copyLink(absoluteUrl(`/playlist/${playlist.uuid}`))}
            >
              <Link2 size={16} aria-hidden /> Share
            </button>
            {isOwner &&
              (draft ? (
                <PlaylistEditorActions editor={editor} />
              ) : (
                <button type="button" className="btn btn-ghost" onClick={editor.start}>
                  <Pencil size={16} aria-hidden /> Edit
                </button>
              ))}
            {user && !isOwner && <ReportButton subjectType="playlist" subjectId={playlist.id} />}
          </div>
          {!draft && (
            <KeepOffline
              target={{ kind: 'playlist', uuid: playlist.uuid, name: playlist.name }}
              files={playlist.files}
            />
          )}
          {!draft && <RatingButtons playlist={playlist} />}

          {draft && (
            <PlaylistEditorFields editor={editor} draft={draft} onDelete={() => setConfirmDelete(true)} />
          )}
        </Card>

        {playlist.warnings.length > 0 && (
          <div className={page.warnings} role="note">
            <AlertTriangle size={20} aria-hidden />
            <WarningsText subject="playlist" warnings={playlist.warnings} />
          </div>
        )}

        <div className={page.sections}>
          <Section title="Description" defaultOpen>
            {playlist.description ? (
              <p className={page.description}>{playlist.description}</p>
            ) : (
              <p className="muted">No description.</p>
            )}
          </Section>
          <Section title="Tags">
            <div className={page.tags}>
              {playlist.hapticsPercent > 0 && <Tag tone="info">Haptics {playlist.hapticsPercent}%</Tag>}
              {playlist.hasPatreonFiles && <Tag tone="warning">Patreon</Tag>}
              {fileTags.map((t) => (
                <Tag key={t.id}>{t.name}</Tag>
              ))}
              {playlist.hapticsPercent === 0 && !playlist.hasPatreonFiles && fileTags.length === 0 && (
                <span className="muted">No tags.</span>
              )}
            </div>
          </Section>
          <Section title="Triggers">
            {playlist.triggers.length > 0 ? (
              <ul className={page.triggerList}>
                {playlist.triggers.map((t) => (
                  <li key={t.id}>
                    <Link to={`/trigger/${encodeURIComponent(triggerSlug(t.name))}`}>
                      {censor.trigger(t.name)}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">No triggers.</p>
            )}
          </Section>
        </div>
      </div>

      <Card className={page.filesCard}>
        <SectionHeader
          title="Files"
          actions={
            <span className="muted">
              {files.length} {files.length === 1 ? 'file' : 'files'}
            </span>
          }
        />
        {draft && (
          <p className={page.editHint}>
            Drag to reorder. Click a track to turn it off or on; turned-off tracks are skipped.
          </p>
        )}
        <TrackList
          label="Playlist files"
          files={files}
          onPlay={(index) => play({ files, startIndex: index, playlist: playlistRef, source })}
          onToggleDisabled={draft ? editor.toggleFile : undefined}
          onReorder={draft ? editor.moveFile : undefined}
          onRemove={isOwner ? (draft ? editor.removeFile : removeSaved) : undefined}
        />
        {draft && mayAddFiles && <PlaylistAddFiles editor={editor} draft={draft} />}
      </Card>

      <ConfirmPopup
        open={confirmDelete}
        title="Delete playlist?"
        message={`“${title}” will be deleted for good.`}
        confirmLabel="Delete"
        danger
        busy={remove.isPending}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={deletePlaylist}
      />
    </div>
  );
}
