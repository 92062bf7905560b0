import { type ComponentType, lazy, Suspense } from 'react';
import type { FeatureSlots } from '../library/feature-slots.tsx';

/**
 * A slot's component loaded with its first use, so a feature's code stays in its own chunk instead
 * of the shell's (as when the screens imported it); nothing shows until it is there.
 */
function lazySlot<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Loaded = lazy(async () => ({ default: await load() }));
  return (props: P) => (
    <Suspense fallback={null}>
      <Loaded {...props} />
    </Suspense>
  );
}

/** Which feature fills each slot of library/feature-slots.tsx; App provides them to every screen. */
export const featureSlots: FeatureSlots = {
  FileEditor: lazySlot(() => import('../features/files/index.ts').then((m) => m.FileEditor)),
  UploadDialog: lazySlot(() => import('../features/files/index.ts').then((m) => m.UploadDialog)),
  AddToPlaylist: lazySlot(() => import('../features/playlists/index.ts').then((m) => m.AddToPlaylist)),
  CreatePlaylistPopup: lazySlot(() =>
    import('../features/playlists/index.ts').then((m) => m.CreatePlaylistPopup),
  ),
  CueEditorSection: lazySlot(() => import('../features/cue-editor/index.ts').then((m) => m.CueEditorSection)),
  FileInsights: lazySlot(() => import('../features/insights/index.ts').then((m) => m.FileInsightsPanel)),
  MessagesBanner: lazySlot(() => import('../features/messages/index.ts').then((m) => m.MessagesBanner)),
  OwnProfile: lazySlot(() => import('../features/users/index.ts').then((m) => m.OwnProfile)),
  PatreonCard: lazySlot(() => import('../features/patreon/index.ts').then((m) => m.PatreonCard)),
};
