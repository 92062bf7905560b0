import { ATTACHMENT_TOO_LARGE_MESSAGE, MAX_ATTACHMENT_BYTES } from '@mesmer/shared/domain/attachments';
import type { HapticCue } from '@mesmer/shared/domain/haptic-cues';
import { Download, Save, Upload } from 'lucide-react';
import { useRef } from 'react';
import { downloadText } from '../../lib/download.ts';
import { Spinner } from '../../ui/index.ts';
import styles from './cue-editor.module.css';
import {
  type CueFormat,
  exportCueFile,
  exportFileName,
  exportFunscript,
  formatOfFileName,
  importCues,
} from './model/cue-formats.ts';

function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

/**
 * Import (a Mesmer cue file or a Funscript, checked like an upload), export in either format, and
 * save. Problems go to `onError` (null clears it).
 */
export function CueFileActions({
  fileName,
  cues,
  onImported,
  onError,
  onSave,
  saving,
  dirty,
}: {
  fileName: string;
  /** The document's cues now (read when exporting). */
  cues: () => HapticCue[];
  onImported: (cues: HapticCue[]) => void;
  onError: (message: string | null) => void;
  onSave: () => void;
  saving: boolean;
  dirty: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const importFile = async (chosen: File) => {
    onError(null);
    if (chosen.size > MAX_ATTACHMENT_BYTES) return onError(ATTACHMENT_TOO_LARGE_MESSAGE);
    const result = importCues(await readText(chosen), formatOfFileName(chosen.name));
    if (!result.ok) return onError(`${chosen.name}: ${result.error}`);
    onImported(result.value);
  };
  const exportAs = (format: CueFormat) => {
    const list = cues();
    const name = exportFileName(fileName, format);
    if (format === 'cues') return downloadText(name, exportCueFile(list), 'application/json');
    const script = exportFunscript(list);
    if (!script.ok) return onError(script.error);
    downloadText(name, script.value, 'application/json');
  };
  return (
    <div className={styles.footer}>
      <input
        ref={input}
        type="file"
        accept=".json,.funscript,application/json"
        className="visually-hidden"
        tabIndex={-1}
        aria-label="Import a cue file or Funscript"
        onChange={(e) => {
          const chosen = e.target.files?.[0];
          e.target.value = '';
          if (chosen) void importFile(chosen);
        }}
      />
      <button type="button" className="btn btn-ghost btn-small" onClick={() => input.current?.click()}>
        <Upload size={14} aria-hidden /> Import…
      </button>
      <button type="button" className="btn btn-ghost btn-small" onClick={() => exportAs('cues')}>
        <Download size={14} aria-hidden /> Export cue file
      </button>
      <button type="button" className="btn btn-ghost btn-small" onClick={() => exportAs('funscript')}>
        <Download size={14} aria-hidden /> Export Funscript
      </button>
      <button
        type="button"
        className={`btn btn-primary ${styles.save}`}
        onClick={onSave}
        disabled={saving || !dirty}
      >
        {saving ? <Spinner size={16} label="Saving" /> : <Save size={16} aria-hidden />} Save cues
      </button>
    </div>
  );
}
