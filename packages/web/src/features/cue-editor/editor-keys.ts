/**
 * The cue editor's keyboard: which action a key press asks for, and the list the shortcuts
 * dialog shows. R (hold) records, so it does not clash with the player's Space, arrows, M, S, ?:
 * inside the editor the editor's keys win (the press is marked handled, and the player's
 * shortcuts skip handled presses).
 */

export type EditorAction =
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'copy' }
  | { type: 'cut' }
  | { type: 'paste' }
  | { type: 'selectAll' }
  | { type: 'delete' }
  | { type: 'clearSelection' }
  | { type: 'selectNext'; direction: -1 | 1; extend: boolean }
  | { type: 'nudge'; deltaMs: number }
  | { type: 'strengthBy'; delta: number }
  /** 1-9 → 10-90 %, 0 → 100 %. */
  | { type: 'strengthKey'; strength: number }
  | { type: 'zoom'; direction: 'in' | 'out' | 'fit' }
  | { type: 'cursorTo'; where: 'start' | 'end' }
  | { type: 'togglePlay' }
  | { type: 'record' }
  | { type: 'addAtCursor' }
  | { type: 'toggleSnap' }
  | { type: 'save' }
  | { type: 'help' };

export const EDITOR_SHORTCUTS: readonly { keys: string; label: string }[] = [
  { keys: 'Drag on the empty lane', label: 'Draw a new cue' },
  { keys: 'Drag a block / its edges / its top', label: 'Move, resize, change strength' },
  { keys: 'Drag on the waveform, Shift+drag', label: 'Select the cues in a stretch' },
  { keys: 'Shift+click, Ctrl+click', label: 'Add to or toggle the selection' },
  { keys: 'Ctrl+wheel, + / −, F', label: 'Zoom in, out, whole file' },
  { keys: 'Space', label: 'Preview from the cursor, or pause' },
  { keys: 'R (hold)', label: 'Record a cue while playing' },
  { keys: '1 … 9, 0', label: 'Strength 10 … 90 %, 100 % (selection, and recording)' },
  { keys: '↑ / ↓', label: 'Strength up or down 5 %' },
  { keys: '← / →', label: 'Select the previous or next cue (Shift: add to selection)' },
  { keys: 'Alt+← / →', label: 'Move the selection 10 ms (Shift: 100 ms)' },
  { keys: 'N', label: 'New cue at the cursor' },
  { keys: 'Home / End', label: 'Cursor to the start or end' },
  { keys: 'Delete, Backspace', label: 'Delete the selection' },
  { keys: 'Ctrl+C / Ctrl+X / Ctrl+V', label: 'Copy, cut, paste at the cursor' },
  { keys: 'Ctrl+A, Escape', label: 'Select all, select none' },
  { keys: 'Ctrl+Z', label: 'Undo' },
  { keys: 'Ctrl+Shift+Z, Ctrl+Y', label: 'Redo' },
  { keys: 'G', label: 'Snapping on or off' },
  { keys: 'Ctrl+S', label: 'Save' },
  { keys: '?', label: 'These shortcuts' },
];

type KeyPress = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey' | 'target'>;

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}

/**
 * The action for a key press in the editor, or null. While typing in a field only Ctrl+S, Ctrl+Z
 * and Ctrl+Y count (the field keeps its own undo for the rest); on a button Space and Enter press it.
 */
export function editorActionFor(e: KeyPress): EditorAction | null {
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (mod && !e.altKey) {
    if (key === 's') return { type: 'save' };
    if (isTyping(e.target)) return null;
    if (key === 'z') return e.shiftKey ? { type: 'redo' } : { type: 'undo' };
    if (key === 'y') return { type: 'redo' };
    if (key === 'c') return { type: 'copy' };
    if (key === 'x') return { type: 'cut' };
    if (key === 'v') return { type: 'paste' };
    if (key === 'a') return { type: 'selectAll' };
    return null;
  }
  if (mod || isTyping(e.target)) return null;
  const onButton = e.target instanceof HTMLElement && e.target.closest('button, a, summary') !== null;
  if (onButton && (key === ' ' || key === 'Enter')) return null;
  if (e.altKey) {
    if (key === 'ArrowLeft' || key === 'ArrowRight') {
      const sign = key === 'ArrowLeft' ? -1 : 1;
      return { type: 'nudge', deltaMs: sign * (e.shiftKey ? 100 : 10) };
    }
    return null;
  }
  if (/^[0-9]$/.test(key)) return { type: 'strengthKey', strength: key === '0' ? 1 : Number(key) / 10 };
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowRight':
      return { type: 'selectNext', direction: key === 'ArrowLeft' ? -1 : 1, extend: e.shiftKey };
    case 'ArrowUp':
      return { type: 'strengthBy', delta: 0.05 };
    case 'ArrowDown':
      return { type: 'strengthBy', delta: -0.05 };
    case 'Delete':
    case 'Backspace':
      return { type: 'delete' };
    case 'Escape':
      return { type: 'clearSelection' };
    case '+':
    case '=':
      return { type: 'zoom', direction: 'in' };
    case '-':
    case '_':
      return { type: 'zoom', direction: 'out' };
    case 'f':
      return { type: 'zoom', direction: 'fit' };
    case 'Home':
      return { type: 'cursorTo', where: 'start' };
    case 'End':
      return { type: 'cursorTo', where: 'end' };
    case ' ':
      return { type: 'togglePlay' };
    case 'r':
      return { type: 'record' };
    case 'n':
      return { type: 'addAtCursor' };
    case 'g':
      return { type: 'toggleSnap' };
    case '?':
      return { type: 'help' };
    default:
      return null;
  }
}
