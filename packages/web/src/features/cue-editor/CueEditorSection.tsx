import type { AudioFile } from '@mesmer/shared/api/files';
import { Vibrate } from 'lucide-react';
import { useState } from 'react';
import styles from './cue-editor.module.css';
import { hasCueDraft } from './has-draft.ts';
import { CueEditor } from './LazyCueEditor.tsx';

/**
 * The cue editor's place in a file's edit mode: a button that opens it, or the editor itself. It opens
 * at once when this browser keeps an unsaved draft for the file, so a draft is never out of sight.
 */
export function CueEditorSection({ file }: { file: AudioFile }) {
  const [open, setOpen] = useState(() => hasCueDraft(file.id));
  if (open) return <CueEditor file={file} />;
  return (
    <div className={styles.opener}>
      <button type="button" className="btn btn-ghost" onClick={() => setOpen(true)}>
        <Vibrate size={16} aria-hidden /> Open the haptic cue editor
      </button>
    </div>
  );
}
