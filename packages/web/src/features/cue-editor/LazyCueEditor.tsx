import { type ComponentProps, lazy, Suspense } from 'react';
import { Spinner } from '../../ui/index.ts';
import type { CueEditor as Editor } from './CueEditor.tsx';

const CueEditorChunk = lazy(() => import('./CueEditor.tsx').then((m) => ({ default: m.CueEditor })));

/** The haptic cue editor, loaded when a file's edit mode opens it: the canvas code stays out of other pages. */
export function CueEditor(props: ComponentProps<typeof Editor>) {
  return (
    <Suspense fallback={<Spinner size={20} label="Loading the cue editor" />}>
      <CueEditorChunk {...props} />
    </Suspense>
  );
}
