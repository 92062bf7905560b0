import { type ComponentProps, lazy, Suspense } from 'react';
import type { UploadDialog as Dialog } from './UploadDialog.tsx';

const UploadDialogChunk = lazy(() => import('./UploadDialog.tsx').then((m) => ({ default: m.UploadDialog })));

/**
 * The upload dialog for other features (the playlist editor), loaded when first opened: its code
 * (chunked uploads, analysis states) stays out of every page's first load.
 */
export function UploadDialog(props: ComponentProps<typeof Dialog>) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <UploadDialogChunk {...props} />
    </Suspense>
  );
}
