import {
  ClipboardPaste,
  Copy,
  Keyboard,
  Magnet,
  Maximize2,
  Redo2,
  Trash2,
  Undo2,
  ZoomIn,
  ZoomOut,
} from 'lucide-react';
import type { ReactNode } from 'react';
import styles from './cue-editor.module.css';
import type { EditorAction } from './editor-keys.ts';

const GRID_CHOICES = [50, 100, 250, 500, 1000] as const;

export interface SnapSettings {
  on: boolean;
  to: 'grid' | 'peaks';
  gridMs: number;
}

function ToolButton({
  label,
  onClick,
  disabled,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={`btn btn-ghost btn-small ${styles.tool}`}
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      title={label}
    >
      {children}
    </button>
  );
}

/** The editor's toolbar: history, clipboard, zoom and snapping; each button names its shortcut. */
export function EditorToolbar({
  fieldId,
  canUndo,
  canRedo,
  hasSelection,
  canPaste,
  snap,
  onSnap,
  onAction,
}: {
  /** Prefix for the ids of its fields (unique on the page). */
  fieldId: string;
  canUndo: boolean;
  canRedo: boolean;
  hasSelection: boolean;
  canPaste: boolean;
  snap: SnapSettings;
  onSnap: (change: (snap: SnapSettings) => SnapSettings) => void;
  onAction: (action: EditorAction) => void;
}) {
  return (
    <div className={styles.toolbar} role="toolbar" aria-label="Cue editing">
      <div className={styles.group}>
        <ToolButton label="Undo (Ctrl+Z)" onClick={() => onAction({ type: 'undo' })} disabled={!canUndo}>
          <Undo2 size={16} aria-hidden />
        </ToolButton>
        <ToolButton
          label="Redo (Ctrl+Shift+Z)"
          onClick={() => onAction({ type: 'redo' })}
          disabled={!canRedo}
        >
          <Redo2 size={16} aria-hidden />
        </ToolButton>
      </div>
      <div className={styles.group}>
        <ToolButton label="Copy (Ctrl+C)" onClick={() => onAction({ type: 'copy' })} disabled={!hasSelection}>
          <Copy size={16} aria-hidden />
        </ToolButton>
        <ToolButton
          label="Paste at the cursor (Ctrl+V)"
          onClick={() => onAction({ type: 'paste' })}
          disabled={!canPaste}
        >
          <ClipboardPaste size={16} aria-hidden />
        </ToolButton>
        <ToolButton
          label="Delete (Delete)"
          onClick={() => onAction({ type: 'delete' })}
          disabled={!hasSelection}
        >
          <Trash2 size={16} aria-hidden />
        </ToolButton>
      </div>
      <div className={styles.group}>
        <ToolButton label="Zoom out (−)" onClick={() => onAction({ type: 'zoom', direction: 'out' })}>
          <ZoomOut size={16} aria-hidden />
        </ToolButton>
        <ToolButton label="Zoom in (+)" onClick={() => onAction({ type: 'zoom', direction: 'in' })}>
          <ZoomIn size={16} aria-hidden />
        </ToolButton>
        <ToolButton label="Whole file (F)" onClick={() => onAction({ type: 'zoom', direction: 'fit' })}>
          <Maximize2 size={16} aria-hidden />
        </ToolButton>
      </div>
      <div className={styles.group}>
        <button
          type="button"
          className={`btn btn-ghost btn-small ${snap.on ? styles.on : ''}`}
          aria-pressed={snap.on}
          onClick={() => onSnap((x) => ({ ...x, on: !x.on }))}
          title="Snapping (G)"
        >
          <Magnet size={16} aria-hidden /> Snap
        </button>
        <label className="visually-hidden" htmlFor={`${fieldId}-snap-to`}>
          Snap to
        </label>
        <select
          id={`${fieldId}-snap-to`}
          className={styles.select}
          value={snap.to === 'peaks' ? 'peaks' : String(snap.gridMs)}
          disabled={!snap.on}
          onChange={(e) => {
            const chosen = e.target.value;
            onSnap((x) =>
              chosen === 'peaks' ? { ...x, to: 'peaks' } : { ...x, to: 'grid', gridMs: Number(chosen) },
            );
          }}
        >
          {GRID_CHOICES.map((ms) => (
            <option key={ms} value={ms}>
              Grid {ms} ms
            </option>
          ))}
          <option value="peaks">Waveform peaks</option>
        </select>
      </div>
      <ToolButton label="Keyboard shortcuts (?)" onClick={() => onAction({ type: 'help' })}>
        <Keyboard size={16} aria-hidden />
      </ToolButton>
    </div>
  );
}
