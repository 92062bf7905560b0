/**
 * The owner's playlist editor: a draft of the playlist (name, description, level, visibility,
 * tracks in order with their on/off switch) shown in place of the page's view parts until it is
 * saved or cancelled. PlaylistPage.tsx lays the parts out.
 */

import type { AudioFile } from '@mesmer/shared/api/files';
import type { Playlist, PlaylistFile } from '@mesmer/shared/api/playlists';
import { moveItem, PAGE_SIZES } from '@mesmer/shared/domain/library-display';
import { TEXT_LIMITS } from '@mesmer/shared/domain/limits';
import { Save, Trash2, Upload, X } from 'lucide-react';
import { useId, useState } from 'react';
import { ExperienceLevelOptions } from '../../library/ExperienceLevels.tsx';
import { useFeatureSlots } from '../../library/feature-slots.tsx';
import { Switch, Textarea, toast } from '../../ui/index.ts';
import { useUpdatePlaylist } from './api.ts';
import { FileSearchPicker } from './FileSearchPicker.tsx';
import page from './playlist.module.css';

export interface PlaylistDraft {
  name: string;
  description: string;
  expLevel: number;
  isPublic: boolean;
  files: PlaylistFile[];
}

const draftOf = (p: Playlist): PlaylistDraft => ({
  name: p.name,
  description: p.description,
  expLevel: p.expLevel,
  isPublic: p.isPublic,
  files: p.files,
});

/** The draft and what changes it; `draft` is null outside edit mode. */
export function usePlaylistEditor(playlist: Playlist) {
  const update = useUpdatePlaylist();
  const [draft, setDraft] = useState<PlaylistDraft | null>(null);
  const [nameMissing, setNameMissing] = useState(false);
  const edit = (patch: Partial<PlaylistDraft>) => setDraft((d) => (d ? { ...d, ...patch } : d));
  const files = draft?.files ?? playlist.files;

  return {
    draft,
    nameMissing,
    saving: update.isPending,
    start: () => setDraft(draftOf(playlist)),
    cancel() {
      setNameMissing(false);
      setDraft(null);
    },
    edit,
    setName(name: string) {
      setNameMissing(false);
      edit({ name });
    },
    addFile: (file: AudioFile) => edit({ files: [...files, { ...file, disabled: false }] }),
    toggleFile: (index: number) =>
      edit({ files: files.map((f, i) => (i === index ? { ...f, disabled: !f.disabled } : f)) }),
    moveFile: (from: number, to: number) => edit({ files: moveItem(files, from, to) }),
    removeFile: (index: number) => edit({ files: files.filter((_, i) => i !== index) }),
    /** A file just uploaded from the editor: appended to the saved playlist, and to the draft. */
    async appendUploaded(fileId: number) {
      const saved = playlist.files.filter((f) => f.id !== fileId);
      try {
        const updated = await update.mutateAsync({
          id: playlist.id,
          fileIds: [...saved.map((f) => f.id), fileId],
          disabledFileIds: saved.filter((f) => f.disabled).map((f) => f.id),
        });
        const added = updated.files.find((f) => f.id === fileId);
        if (added)
          setDraft((d) => (d ? { ...d, files: [...d.files.filter((f) => f.id !== fileId), added] } : d));
        toast('success', 'Added to playlist!');
      } catch (err) {
        toast('error', 'The file could not be added to the playlist.', (err as Error).message);
      }
    },
    save() {
      if (!draft) return;
      if (!draft.name.trim()) return setNameMissing(true);
      update.mutate(
        {
          id: playlist.id,
          name: draft.name.trim(),
          description: draft.description,
          expLevelId: draft.expLevel,
          isPublic: draft.isPublic,
          fileIds: draft.files.map((f) => f.id),
          disabledFileIds: draft.files.filter((f) => f.disabled).map((f) => f.id),
        },
        {
          onSuccess: () => {
            setDraft(null);
            toast('success', 'Playlist updated!');
          },
          onError: (err) => toast('error', 'The playlist could not be saved.', err.message),
        },
      );
    },
  };
}
export type PlaylistEditor = ReturnType<typeof usePlaylistEditor>;

/** The name field, in place of the title. */
export function PlaylistNameField({ editor, draft }: { editor: PlaylistEditor; draft: PlaylistDraft }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Name</label>
      <input
        id={id}
        className="input"
        value={draft.name}
        maxLength={TEXT_LIMITS.playlistName}
        aria-invalid={editor.nameMissing}
        onChange={(e) => editor.setName(e.target.value)}
      />
    </div>
  );
}

export function PlaylistEditorActions({ editor }: { editor: PlaylistEditor }) {
  return (
    <>
      <button type="button" className="btn btn-primary" onClick={editor.save} disabled={editor.saving}>
        <Save size={16} aria-hidden /> Save
      </button>
      <button type="button" className="btn btn-ghost" onClick={editor.cancel}>
        <X size={16} aria-hidden /> Cancel
      </button>
    </>
  );
}

/** Description, level, visibility and the way to delete the playlist. */
export function PlaylistEditorFields({
  editor,
  draft,
  onDelete,
}: {
  editor: PlaylistEditor;
  draft: PlaylistDraft;
  onDelete: () => void;
}) {
  const ids = { description: useId(), level: useId() };
  return (
    <div className={page.editFields}>
      <div className="field">
        <label htmlFor={ids.description}>Description</label>
        <Textarea
          id={ids.description}
          value={draft.description}
          maxLength={TEXT_LIMITS.description}
          onChange={(e) => editor.edit({ description: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.level}>Experience level</label>
        <select
          id={ids.level}
          className="select"
          value={draft.expLevel}
          onChange={(e) => editor.edit({ expLevel: Number(e.target.value) })}
        >
          <ExperienceLevelOptions />
        </select>
      </div>
      <Switch
        label="Public"
        description="Anyone can find and play a public playlist."
        checked={draft.isPublic}
        onChange={(isPublic) => editor.edit({ isPublic })}
      />
      <button type="button" className="btn btn-danger btn-small" onClick={onDelete}>
        <Trash2 size={16} aria-hidden /> Delete playlist
      </button>
    </div>
  );
}

/** The Add Files search under the track list (for uploaders), and uploading a new file into the playlist. */
export function PlaylistAddFiles({ editor, draft }: { editor: PlaylistEditor; draft: PlaylistDraft }) {
  const { UploadDialog } = useFeatureSlots();
  const [uploading, setUploading] = useState(false);
  return (
    <div className={page.addFiles}>
      <FileSearchPicker
        label="Add Files"
        pageSize={PAGE_SIZES.editorFileSearch}
        excludeIds={draft.files.map((f) => f.id)}
        onPick={editor.addFile}
      />
      <button type="button" className="btn btn-ghost btn-small" onClick={() => setUploading(true)}>
        <Upload size={16} aria-hidden /> Upload a new file
      </button>
      <UploadDialog open={uploading} onClose={() => setUploading(false)} onCreated={editor.appendUploaded} />
    </div>
  );
}
