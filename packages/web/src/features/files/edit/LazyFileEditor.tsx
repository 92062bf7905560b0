import { type ComponentProps, lazy, Suspense } from 'react';
import { Spinner } from '../../../ui/index.ts';
import type { FileEditor as Editor } from './FileEditor.tsx';

const FileEditorChunk = lazy(() => import('./FileEditor.tsx').then((m) => ({ default: m.FileEditor })));

/**
 * The file page's edit mode for other screens (the track popup), loaded when first opened: the
 * form and its attachments stay out of every track list's first load.
 */
export function FileEditor(props: ComponentProps<typeof Editor>) {
  return (
    <Suspense fallback={<Spinner size={20} label="Loading editor" />}>
      <FileEditorChunk {...props} />
    </Suspense>
  );
}
