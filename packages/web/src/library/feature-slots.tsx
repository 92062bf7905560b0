import type { AudioFile } from '@mesmer/shared/api/files';
import type { PublicUser, SelfUser } from '@mesmer/shared/api/users';
import { type ComponentType, createContext, type ReactNode, type Ref, useContext } from 'react';

/** The file editor's handle: leaving runs `next` at once, or after confirming unsaved changes. */
export interface FileEditorHandle {
  leave(next: () => void): void;
}

/**
 * Parts of one feature that another feature's screen or a library widget shows. Features never
 * import each other (the layer rules, decision 017), so the app shell fills these in
 * (app/feature-slots.tsx) and the screens take them from here. The props are what the callers pass.
 */
export interface FeatureSlots {
  /** files: a file's edit mode (the track popup). */
  FileEditor: ComponentType<{
    file: AudioFile;
    editor: { id: number; roles: string[] };
    onClose: () => void;
    onDeleted?: () => void;
    handle?: Ref<FileEditorHandle>;
  }>;
  /** files: the upload dialog (the playlist editor appends the made file). */
  UploadDialog: ComponentType<{
    open: boolean;
    onClose: () => void;
    onCreated?: (fileId: number) => Promise<unknown> | undefined;
  }>;
  /** playlists: add a file to one of the viewer's playlists (the track popup and file page). */
  AddToPlaylist: ComponentType<{ fileId: number; userId: number }>;
  /** playlists: the create-playlist popup (the home page). */
  CreatePlaylistPopup: ComponentType<{ open: boolean; onClose: () => void }>;
  /** messages: the new-messages banner (the home page). */
  MessagesBanner: ComponentType;
  /** users: the own, editable profile card (the account page). */
  OwnProfile: ComponentType<{
    user: PublicUser;
    heading: 'h1' | 'h2';
    avatarSize: number;
    stats: readonly { label: string; value: ReactNode }[];
    className?: string;
    children?: ReactNode;
  }>;
  /** cue-editor: the haptic cue editor in a file's edit mode (its opener until opened). */
  CueEditorSection: ComponentType<{ file: AudioFile }>;
  /** insights: one file's insights for its uploader and staff (the file page); brings the chart library. */
  FileInsights: ComponentType<{ fileId: number }>;
  /** patreon: the Patreon card (the account page). */
  PatreonCard: ComponentType<{ user: SelfUser }>;
}

const FeatureSlotsContext = createContext<FeatureSlots | null>(null);

export const FeatureSlotsProvider = FeatureSlotsContext.Provider;

export function useFeatureSlots(): FeatureSlots {
  const slots = useContext(FeatureSlotsContext);
  if (!slots)
    throw new Error('FeatureSlots are missing: the app shell provides them (app/feature-slots.tsx).');
  return slots;
}
