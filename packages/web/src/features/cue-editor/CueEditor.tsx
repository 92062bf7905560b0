import type { AudioFile, FileCues } from '@mesmer/shared/api/files';
import { ATTACHMENT_TOO_LARGE_MESSAGE, MAX_ATTACHMENT_BYTES } from '@mesmer/shared/domain/attachments';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Circle,
  ClipboardPaste,
  Copy,
  Download,
  Keyboard,
  Magnet,
  Maximize2,
  Pause,
  Play,
  Redo2,
  Save,
  Square,
  Trash2,
  Undo2,
  Upload,
  ZoomIn,
  ZoomOut,
} from 'lucide-react';
import { type KeyboardEvent, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../lib/api-client.ts';
import { ErrorState, FormError, LoadingState, Modal, Spinner, toast } from '../../ui/index.ts';
import { editorCuesQuery, peaksQuery, useSaveCues } from './api.ts';
import styles from './cue-editor.module.css';
import { EDITOR_SHORTCUTS, type EditorAction, editorActionFor } from './editor-keys.ts';
import { Inspector } from './Inspector.tsx';
import { IntensityMeter } from './IntensityMeter.tsx';
import {
  addCue,
  beginGesture,
  cancelGesture,
  canRedo,
  canUndo,
  changeStrength,
  clearSelection,
  copyCues,
  createEditorState,
  cutCues,
  documentCues,
  type EditorState,
  endGesture,
  isDirty,
  moveCues,
  nudgeCues,
  pasteCues,
  redo,
  removeCues,
  replaceAll,
  resizeCue,
  type SelectMode,
  select,
  selectAll,
  selectedCues,
  selectInRange,
  setStrength,
  undo,
} from './model/cue-document.ts';
import {
  type CueFormat,
  exportCueFile,
  exportFileName,
  exportFunscript,
  formatOfFileName,
  importCues,
} from './model/cue-formats.ts';
import { discardDraft, loadDraft, saveDraft } from './model/draft.ts';
import {
  DEFAULT_RECORDING_STRENGTH,
  finishRecording,
  pressKey,
  type Recording,
  recordedCues,
  releaseKey,
  setRecordingStrength,
  startRecording,
} from './model/recording.ts';
import { peakTimes, snapTime } from './model/snapping.ts';
import { fitView, msToPx, scrollToShow, type TimelineView, ZOOM_STEP, zoomAt } from './model/timeline.ts';
import { Timeline, type TimelineGesture } from './Timeline.tsx';
import { formatTime, type PeakWindow, peakWindowsFor } from './timeline-view.ts';
import { useCuePreview } from './useCuePreview.ts';

/** Snapping reaches this many pixels. */
const SNAP_PX = 8;
const GRID_CHOICES = [50, 100, 250, 500, 1000] as const;
/** A cue added from the keyboard (N) is this long when there is no grid. */
const KEY_CUE_MS = 500;
/** Edits are written to the browser's draft this long after the last one. */
const DRAFT_DELAY_MS = 400;

function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function useNarrow(): boolean {
  const query = '(max-width: 768px)';
  const [narrow, setNarrow] = useState(() => typeof matchMedia === 'function' && matchMedia(query).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const list = matchMedia(query);
    const onChange = () => setNarrow(list.matches);
    list.addEventListener?.('change', onChange);
    return () => list.removeEventListener?.('change', onChange);
  }, []);
  return narrow;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

function download(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * The haptic cue editor of a file's edit mode: the cues as blocks under the waveform, edited with
 * pointer and keyboard, recorded while listening, previewed on the connected toy through the
 * player, kept as a draft in this browser until saved (PUT /api/files/cues, with a conflict check).
 */
export function CueEditor({ file }: { file: AudioFile }) {
  const cues = useQuery(editorCuesQuery(file.id));
  const headingId = useId();
  return (
    <section className={styles.editor} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.heading}>
        Haptic cue editor
      </h2>
      {cues.isPending ? (
        <LoadingState label="Loading cues" />
      ) : cues.isError ? (
        <ErrorState
          message={`The cues could not be loaded. ${cues.error.message}`}
          onRetry={() => cues.refetch()}
        />
      ) : (
        <EditorBody file={file} loaded={cues.data} />
      )}
    </section>
  );
}

interface Start {
  state: EditorState;
  revision: number;
  /** When a draft from this browser was restored: its time. */
  restoredAt: number | null;
}

function startFrom(file: AudioFile, loaded: FileCues): Start {
  const fresh = createEditorState(loaded.cues, file.duration);
  const storage = browserStorage();
  const draft = storage ? loadDraft(storage, file.id) : null;
  if (!draft) return { state: fresh, revision: loaded.revision, restoredAt: null };
  const restored = replaceAll(fresh, draft.cues);
  if (JSON.stringify(documentCues(restored)) === JSON.stringify(documentCues(fresh))) {
    if (storage) discardDraft(storage, file.id);
    return { state: fresh, revision: loaded.revision, restoredAt: null };
  }
  // The draft keeps the revision it started from: if the file's cues changed since, saving asks first.
  return { state: restored, revision: draft.baseVersion, restoredAt: draft.savedAt };
}

function EditorBody({ file, loaded }: { file: AudioFile; loaded: FileCues }) {
  const durationMs = Math.max(1, file.duration);
  const client = useQueryClient();
  const narrow = useNarrow();
  const [start] = useState(() => startFrom(file, loaded));
  const [state, setState] = useState(start.state);
  const stateRef = useRef(state);
  stateRef.current = state;
  const [revision, setRevision] = useState(start.revision);
  const [restoredAt, setRestoredAt] = useState(start.restoredAt);
  const [view, setView] = useState<TimelineView>(() => fitView(durationMs, 800));
  const [cursorMs, setCursorMs] = useState(0);
  const [focusId, setFocusId] = useState<number | null>(null);
  const [snap, setSnap] = useState<{ on: boolean; to: 'grid' | 'peaks'; gridMs: number }>({
    on: true,
    to: 'grid',
    gridMs: 100,
  });
  const [strength, setNewStrength] = useState(DEFAULT_RECORDING_STRENGTH);
  const [announcement, setAnnouncement] = useState('');
  const [help, setHelp] = useState(false);
  const [conflict, setConflict] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [recording, setRecording] = useState(false);
  const rec = useRef<Recording | null>(null);
  const importInput = useRef<HTMLInputElement>(null);
  const timelineBox = useRef<HTMLDivElement>(null);
  const save = useSaveCues(file.id);
  const preview = useCuePreview(file);

  const announce = (message: string) => setAnnouncement(message);
  const apply = (change: (s: EditorState) => EditorState, message?: string) => {
    setState(change);
    if (message) announce(message);
  };

  // --- the draft in this browser -----------------------------------------------------------
  const draftInput = useRef({ state, revision });
  draftInput.current = { state, revision };
  const writeDraft = useCallback(() => {
    const storage = browserStorage();
    const { state: s, revision: r } = draftInput.current;
    if (!storage || s.gestureStart) return;
    if (isDirty(s))
      saveDraft(storage, file.id, { baseVersion: r, savedAt: Date.now(), cues: documentCues(s) });
    else discardDraft(storage, file.id);
  }, [file.id]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: written when the document or its base changes
  useEffect(() => {
    const timer = setTimeout(writeDraft, DRAFT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.doc, state.savedDoc, revision, writeDraft]);
  useEffect(() => {
    window.addEventListener('pagehide', writeDraft);
    return () => {
      window.removeEventListener('pagehide', writeDraft);
      writeDraft();
    };
  }, [writeDraft]);

  // --- waveform peaks at the view's resolution ---------------------------------------------
  const windows = useMemo(
    () => [
      // The whole file, coarse: drawn first, so a zoomed view is never blank while its peaks load.
      { fromMs: 0, toMs: durationMs, msPerPeak: Math.max(1, Math.ceil(durationMs / 1500)) },
      ...peakWindowsFor(view, durationMs),
    ],
    [view, durationMs],
  );
  const peakAnswers = useQueries({ queries: windows.map((w) => peaksQuery(file.id, w)) });
  const peaks: PeakWindow[] = [];
  for (const answer of peakAnswers) {
    if (answer.data && answer.data.peaks.length > 0) peaks.push(answer.data);
  }
  const finest = peaks.length > 1 ? peaks.slice(1) : peaks;
  const peaksKey = finest.map((w) => `${w.fromMs}/${w.msPerPeak}/${w.peaks.length}`).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key names the windows' content
  const snapPeaks = useMemo(
    () => finest.flatMap((w) => peakTimes(w.peaks, w.msPerPeak, { fromMs: w.fromMs })).sort((a, b) => a - b),
    [peaksKey],
  );

  const snapMs = (ms: number) =>
    snap.on
      ? snapTime(ms, {
          gridMs: snap.to === 'grid' ? snap.gridMs : undefined,
          peaksTimes: snap.to === 'peaks' ? snapPeaks : undefined,
          toleranceMs: SNAP_PX * view.msPerPx,
        })
      : ms;

  // --- playback: preview, recording, following the playhead ------------------------------
  const playing = preview.playing;
  const position = preview.position;
  useEffect(() => {
    if (!playing) return;
    const follow = setInterval(() => {
      const at = position();
      if (at !== null) setView((v) => scrollToShow(v, at, durationMs, v.widthPx * 0.1));
    }, 250);
    return () => clearInterval(follow);
  }, [playing, position, durationMs]);

  const finishRec = useCallback(() => {
    const r = rec.current;
    if (!r) return;
    rec.current = null;
    setRecording(false);
    const at = position() ?? r.lastMs;
    const before = stateRef.current;
    const after = finishRecording(before, r, at);
    setState(after);
    setAnnouncement(
      after === before
        ? 'Recording stopped, no cues recorded'
        : `Recorded ${plural(after.selection.size, 'cue')}`,
    );
    if (after.selection.size > 0) setCursorMs(Math.min(at, durationMs));
  }, [position, durationMs]);
  // Paused (the player bar, the wake-up button, the end of the track): the recording is written.
  useEffect(() => {
    if (!playing && rec.current) finishRec();
  }, [playing, finishRec]);

  const playFromCursor = () => preview.start(documentCues(stateRef.current), cursorMs);
  const armRecording = () => {
    if (rec.current) return;
    const at = playing ? (position() ?? cursorMs) : cursorMs;
    if (!playing) preview.start(documentCues(stateRef.current), cursorMs);
    rec.current = startRecording(at, strength);
    setRecording(true);
    announce('Recording: hold R or the Hold button to lay down cues');
  };
  const pressRecord = () => {
    armRecording();
    const r = rec.current;
    if (r) rec.current = pressKey(r, position() ?? r.lastMs, strength);
  };
  const releaseRecord = () => {
    const r = rec.current;
    if (r) rec.current = releaseKey(r, position() ?? r.lastMs);
  };
  const stopRecording = () => {
    finishRec();
    preview.stop();
  };

  // --- edits ---------------------------------------------------------------------------------
  const selectCues = (ids: number[], mode: SelectMode) => {
    const next = select(stateRef.current, ids, mode);
    setState(next);
    if (ids.length > 0) setFocusId(ids[ids.length - 1]);
    announce(
      next.selection.size === 0 ? 'Selection cleared' : `${plural(next.selection.size, 'cue')} selected`,
    );
  };

  const onGesture = (g: TimelineGesture, phase: 'update' | 'end' | 'cancel') => {
    if (phase === 'cancel') return apply(cancelGesture);
    setState((s) => {
      let next = s.gestureStart ? s : beginGesture(s);
      if (g.kind === 'move') next = moveCues(next, g.ids, g.deltaMs);
      else if (g.kind === 'resize') next = resizeCue(next, g.id, g.edge, g.toMs);
      else next = changeStrength(next, g.ids, g.delta);
      return phase === 'end' ? endGesture(next) : next;
    });
    if (phase === 'end') {
      announce(
        g.kind === 'move'
          ? `Moved ${plural(g.ids.length, 'cue')}`
          : g.kind === 'resize'
            ? 'Cue resized'
            : `Strength changed for ${plural(g.ids.length, 'cue')}`,
      );
    }
  };

  const zoom = (direction: 'in' | 'out' | 'fit') => {
    setView((v) => {
      if (direction === 'fit') return fitView(durationMs, v.widthPx);
      const anchor = Math.min(v.widthPx, Math.max(0, msToPx(v, cursorMs)));
      return zoomAt(v, direction === 'in' ? 1 / ZOOM_STEP : ZOOM_STEP, anchor, durationMs);
    });
  };

  const moveCursor = (ms: number) => {
    const at = Math.min(durationMs, Math.max(0, ms));
    setCursorMs(at);
    setView((v) => scrollToShow(v, at, durationMs, v.widthPx * 0.1));
  };

  const selectNext = (direction: -1 | 1, extend: boolean) => {
    const list = stateRef.current.doc.cues;
    if (list.length === 0) return;
    const current = list.findIndex((c) => c.id === focusId);
    let index: number;
    if (current === -1) {
      const after = list.findIndex((c) => c.time >= cursorMs);
      index =
        direction === 1
          ? after === -1
            ? list.length - 1
            : after
          : after === -1
            ? list.length - 1
            : Math.max(0, after - 1);
    } else {
      index = Math.min(list.length - 1, Math.max(0, current + direction));
    }
    const cue = list[index];
    selectCues([cue.id], extend ? 'add' : 'replace');
    moveCursor(cue.time);
    announce(
      `Cue ${index + 1} of ${list.length}: ${formatTime(cue.time)} to ${formatTime(cue.stopTime)}, strength ${Math.round(cue.strength * 100)}%`,
    );
  };

  const addAtCursor = () => {
    const length = snap.on && snap.to === 'grid' ? Math.max(snap.gridMs, 10) : KEY_CUE_MS;
    apply((s) => addCue(s, cursorMs, cursorMs + length, strength), `Cue added at ${formatTime(cursorMs)}`);
  };

  const doSave = () => {
    const s = stateRef.current;
    const list = documentCues(s);
    setError(null);
    if (list.length === 0) {
      setError(
        'A cue file needs at least one cue. To remove the haptics, use “Remove haptics” under Attachments.',
      );
      return;
    }
    const savedDoc = s.doc;
    save.mutate(
      { revision, cues: list },
      {
        onSuccess: (answer) => {
          setRevision(answer.revision);
          setState((now) => ({ ...now, savedDoc }));
          setRestoredAt(null);
          toast('success', 'Cues saved.');
          announce('Cues saved');
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status === 409) setConflict(err.message);
          else setError(err.message);
        },
      },
    );
  };

  const fetchTheirs = () => client.fetchQuery({ ...editorCuesQuery(file.id), staleTime: 0 });
  const keepMine = async () => {
    try {
      const theirs = await fetchTheirs();
      setRevision(theirs.revision);
      setConflict(null);
      toast('info', 'Your cues are kept as a draft.', 'Save again to replace the other version with yours.');
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const loadTheirs = async () => {
    try {
      const theirs = await fetchTheirs();
      setState(createEditorState(theirs.cues, durationMs));
      setRevision(theirs.revision);
      setConflict(null);
      setRestoredAt(null);
      announce(`Loaded the saved cues: ${plural(theirs.cues.length, 'cue')}`);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const discard = async () => {
    try {
      const saved = await fetchTheirs();
      setState(createEditorState(saved.cues, durationMs));
      setRevision(saved.revision);
      setRestoredAt(null);
      const storage = browserStorage();
      if (storage) discardDraft(storage, file.id);
      announce('Draft discarded');
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const importFile = async (chosen: File) => {
    setError(null);
    if (chosen.size > MAX_ATTACHMENT_BYTES) return setError(ATTACHMENT_TOO_LARGE_MESSAGE);
    const result = importCues(await readText(chosen), formatOfFileName(chosen.name));
    if (!result.ok) return setError(`${chosen.name}: ${result.error}`);
    apply((s) => replaceAll(s, result.value), `Imported ${plural(result.value.length, 'cue')}`);
    toast('success', `Imported ${plural(result.value.length, 'cue')}.`, 'Undo puts the previous cues back.');
  };
  const exportAs = (format: CueFormat) => {
    const list = documentCues(stateRef.current);
    const name = exportFileName(file.name, format);
    if (format === 'cues') return download(name, exportCueFile(list), 'application/json');
    const script = exportFunscript(list);
    if (!script.ok) return setError(script.error);
    download(name, script.value, 'application/json');
  };

  const run = (action: EditorAction) => {
    const s = stateRef.current;
    const count = s.selection.size;
    switch (action.type) {
      case 'undo':
        return apply(undo, canUndo(s) ? 'Undone' : 'Nothing to undo');
      case 'redo':
        return apply(redo, canRedo(s) ? 'Redone' : 'Nothing to redo');
      case 'copy':
        return apply(
          (x) => copyCues(x, x.selection),
          count ? `Copied ${plural(count, 'cue')}` : 'Nothing selected',
        );
      case 'cut':
        return apply(
          (x) => cutCues(x, x.selection),
          count ? `Cut ${plural(count, 'cue')}` : 'Nothing selected',
        );
      case 'paste':
        return apply(
          (x) => pasteCues(x, cursorMs),
          s.clipboard.length
            ? `Pasted ${plural(s.clipboard.length, 'cue')} at ${formatTime(cursorMs)}`
            : 'Nothing to paste',
        );
      case 'selectAll':
        return apply(selectAll, `${plural(s.doc.cues.length, 'cue')} selected`);
      case 'delete':
        return apply(
          (x) => removeCues(x, x.selection),
          count ? `Deleted ${plural(count, 'cue')}` : 'Nothing selected',
        );
      case 'clearSelection':
        if (rec.current) return stopRecording();
        return apply(clearSelection, 'Selection cleared');
      case 'selectNext':
        return selectNext(action.direction, action.extend);
      case 'nudge':
        return apply(
          (x) => nudgeCues(x, x.selection, action.deltaMs),
          count ? `Moved ${action.deltaMs} ms` : undefined,
        );
      case 'strengthBy':
        return apply(
          (x) => changeStrength(x, x.selection, action.delta),
          count ? 'Strength changed' : undefined,
        );
      case 'strengthKey': {
        setNewStrength(action.strength);
        const r = rec.current;
        if (r) {
          rec.current = setRecordingStrength(r, position() ?? r.lastMs, action.strength);
          return announce(`Recording strength ${Math.round(action.strength * 100)}%`);
        }
        return apply(
          (x) => setStrength(x, x.selection, action.strength),
          count
            ? `Strength ${Math.round(action.strength * 100)}% for ${plural(count, 'cue')}`
            : `New cues at ${Math.round(action.strength * 100)}%`,
        );
      }
      case 'zoom':
        return zoom(action.direction);
      case 'cursorTo':
        return moveCursor(action.where === 'start' ? 0 : durationMs);
      case 'togglePlay':
        return playing ? preview.stop() : playFromCursor();
      case 'record':
        return pressRecord();
      case 'addAtCursor':
        return addAtCursor();
      case 'toggleSnap':
        setSnap((x) => ({ ...x, on: !x.on }));
        return announce(snap.on ? 'Snapping off' : 'Snapping on');
      case 'save':
        return doSave();
      case 'help':
        return setHelp(true);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const action = editorActionFor(e);
    if (!action) return;
    e.preventDefault();
    if (e.repeat && (action.type === 'record' || action.type === 'togglePlay')) return;
    run(action);
  };
  const onKeyUp = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key.toLowerCase() === 'r' && !e.ctrlKey && !e.metaKey) releaseRecord();
  };

  const selected = selectedCues(state);
  const dirty = isDirty(state);
  const playheadText = formatTime(position() ?? cursorMs);

  return (
    // The editor's keys work wherever its focus is (canvas, toolbar); fields keep their own keys.
    // biome-ignore lint/a11y/noStaticElementInteractions: keyboard shortcuts for the controls inside
    <div className={styles.body} onKeyDown={onKeyDown} onKeyUp={onKeyUp} data-own-keys>
      <p className={styles.status} aria-live="off">
        {dirty ? (
          <>
            <span className={styles.unsaved}>Unsaved changes</span> — kept in this browser until you save.
          </>
        ) : (
          <span className="muted">
            {state.doc.cues.length === 0
              ? 'No cues yet: draw one on the lane below, or record.'
              : 'All changes saved.'}
          </span>
        )}
      </p>
      {restoredAt !== null && (
        <div className={styles.notice} role="status">
          <span>A draft from {new Date(restoredAt).toLocaleString()} was restored from this browser.</span>
          <button type="button" className="btn btn-ghost btn-small" onClick={discard}>
            Discard draft
          </button>
        </div>
      )}

      <div className={styles.toolbar} role="toolbar" aria-label="Cue editing">
        <div className={styles.group}>
          <ToolButton label="Undo (Ctrl+Z)" onClick={() => run({ type: 'undo' })} disabled={!canUndo(state)}>
            <Undo2 size={16} aria-hidden />
          </ToolButton>
          <ToolButton
            label="Redo (Ctrl+Shift+Z)"
            onClick={() => run({ type: 'redo' })}
            disabled={!canRedo(state)}
          >
            <Redo2 size={16} aria-hidden />
          </ToolButton>
        </div>
        <div className={styles.group}>
          <ToolButton
            label="Copy (Ctrl+C)"
            onClick={() => run({ type: 'copy' })}
            disabled={selected.length === 0}
          >
            <Copy size={16} aria-hidden />
          </ToolButton>
          <ToolButton
            label="Paste at the cursor (Ctrl+V)"
            onClick={() => run({ type: 'paste' })}
            disabled={state.clipboard.length === 0}
          >
            <ClipboardPaste size={16} aria-hidden />
          </ToolButton>
          <ToolButton
            label="Delete (Delete)"
            onClick={() => run({ type: 'delete' })}
            disabled={selected.length === 0}
          >
            <Trash2 size={16} aria-hidden />
          </ToolButton>
        </div>
        <div className={styles.group}>
          <ToolButton label="Zoom out (−)" onClick={() => zoom('out')}>
            <ZoomOut size={16} aria-hidden />
          </ToolButton>
          <ToolButton label="Zoom in (+)" onClick={() => zoom('in')}>
            <ZoomIn size={16} aria-hidden />
          </ToolButton>
          <ToolButton label="Whole file (F)" onClick={() => zoom('fit')}>
            <Maximize2 size={16} aria-hidden />
          </ToolButton>
        </div>
        <div className={styles.group}>
          <button
            type="button"
            className={`btn btn-ghost btn-small ${snap.on ? styles.on : ''}`}
            aria-pressed={snap.on}
            onClick={() => setSnap((x) => ({ ...x, on: !x.on }))}
            title="Snapping (G)"
          >
            <Magnet size={16} aria-hidden /> Snap
          </button>
          <label className="visually-hidden" htmlFor={`${file.id}-snap-to`}>
            Snap to
          </label>
          <select
            id={`${file.id}-snap-to`}
            className={styles.select}
            value={snap.to === 'peaks' ? 'peaks' : String(snap.gridMs)}
            disabled={!snap.on}
            onChange={(e) =>
              setSnap((x) =>
                e.target.value === 'peaks'
                  ? { ...x, to: 'peaks' }
                  : { ...x, to: 'grid', gridMs: Number(e.target.value) },
              )
            }
          >
            {GRID_CHOICES.map((ms) => (
              <option key={ms} value={ms}>
                Grid {ms} ms
              </option>
            ))}
            <option value="peaks">Waveform peaks</option>
          </select>
        </div>
        <ToolButton label="Keyboard shortcuts (?)" onClick={() => setHelp(true)}>
          <Keyboard size={16} aria-hidden />
        </ToolButton>
      </div>

      <div ref={timelineBox} className={styles.timeline}>
        <Timeline
          cues={state.doc.cues}
          selection={state.selection}
          focusedId={focusId}
          durationMs={durationMs}
          peaks={peaks}
          view={view}
          onView={setView}
          cursorMs={cursorMs}
          onCursor={(ms) => {
            setCursorMs(ms);
            announce(`Cursor at ${formatTime(ms)}`);
          }}
          playhead={position}
          recorded={() => (rec.current ? recordedCues(rec.current, position() ?? rec.current.lastMs) : [])}
          animating={playing || recording}
          snap={snapMs}
          newStrength={strength}
          onSelect={selectCues}
          onSelectRange={(from, to, additive) => {
            const next = selectInRange(stateRef.current, from, to, additive ? 'add' : 'replace');
            setState(next);
            announce(`${plural(next.selection.size, 'cue')} selected`);
          }}
          onAdd={(from, to, s) => apply((x) => addCue(x, from, to, s), `Cue added at ${formatTime(from)}`)}
          onGesture={onGesture}
          height={narrow ? 168 : 220}
          label={`Cue timeline of ${file.name}`}
        />
      </div>

      <div className={styles.transport}>
        <button
          type="button"
          className="btn btn-primary btn-small"
          onClick={() => (playing ? preview.stop() : playFromCursor())}
        >
          {playing ? <Pause size={16} aria-hidden /> : <Play size={16} aria-hidden />}{' '}
          {playing ? 'Pause' : 'Preview from cursor'}
        </button>
        <button
          type="button"
          className={`btn btn-small ${recording ? 'btn-danger' : 'btn-ghost'}`}
          aria-pressed={recording}
          onClick={() => (recording ? stopRecording() : armRecording())}
        >
          {recording ? <Square size={14} aria-hidden /> : <Circle size={14} aria-hidden />}{' '}
          {recording ? 'Stop recording' : 'Record'}
        </button>
        <button
          type="button"
          className={`btn btn-ghost btn-small ${styles.hold}`}
          onPointerDown={(e) => {
            e.currentTarget.setPointerCapture?.(e.pointerId);
            pressRecord();
          }}
          onPointerUp={releaseRecord}
          onPointerCancel={releaseRecord}
          onKeyDown={(e) => {
            if ((e.key === ' ' || e.key === 'Enter') && !e.repeat) {
              e.preventDefault();
              e.stopPropagation();
              pressRecord();
            }
          }}
          onKeyUp={(e) => {
            if (e.key === ' ' || e.key === 'Enter') {
              e.preventDefault();
              releaseRecord();
            }
          }}
          onContextMenu={(e) => e.preventDefault()}
        >
          Hold to lay a cue
        </button>
        <label className={styles.strength}>
          <span>New cue strength {Math.round(strength * 100)}%</span>
          <input
            type="range"
            min={0}
            max={100}
            step={5}
            value={Math.round(strength * 100)}
            onChange={(e) => {
              const s = Number(e.target.value) / 100;
              setNewStrength(s);
              const r = rec.current;
              if (r) rec.current = setRecordingStrength(r, position() ?? r.lastMs, s);
            }}
          />
        </label>
        <IntensityMeter level={preview.level} max={preview.maxLevel} active={playing} />
        <span className={styles.time}>
          {playing ? 'Playing' : 'Cursor'} {playheadText}
        </span>
      </div>

      <Inspector
        selected={selected}
        durationMs={durationMs}
        onTimes={(id, edge, ms) =>
          apply((s) => resizeCue(s, id, edge, ms), `Cue ${edge} set to ${formatTime(ms)}`)
        }
        onStrength={(s) =>
          apply(
            (x) => setStrength(x, x.selection, s),
            `Strength ${Math.round(s * 100)}% for ${plural(selected.length, 'cue')}`,
          )
        }
      />

      <FormError message={error} />
      <div className={styles.footer}>
        <input
          ref={importInput}
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
        <button
          type="button"
          className="btn btn-ghost btn-small"
          onClick={() => importInput.current?.click()}
        >
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
          onClick={doSave}
          disabled={save.isPending || !dirty}
        >
          {save.isPending ? <Spinner size={16} label="Saving" /> : <Save size={16} aria-hidden />} Save cues
        </button>
      </div>

      <p className="visually-hidden" aria-live="polite" data-testid="cue-announcer">
        {announcement}
      </p>

      <Modal open={help} title="Cue editor shortcuts" onClose={() => setHelp(false)}>
        <dl className={styles.shortcuts}>
          {EDITOR_SHORTCUTS.map((s) => (
            <div key={s.keys} className={styles.shortcut}>
              <dt>
                <kbd>{s.keys}</kbd>
              </dt>
              <dd>{s.label}</dd>
            </div>
          ))}
        </dl>
      </Modal>

      <Modal
        open={conflict !== null}
        title="The cues changed meanwhile"
        onClose={() => setConflict(null)}
        footer={
          <>
            <button type="button" className="btn btn-ghost" onClick={loadTheirs}>
              Load theirs
            </button>
            <button type="button" className="btn btn-primary" onClick={keepMine}>
              Keep mine as a new draft
            </button>
          </>
        }
      >
        <p>{conflict}</p>
        <p>
          Keep yours to go on editing them (saving again replaces the other version), or load the saved cues
          and drop your changes.
        </p>
      </Modal>
    </div>
  );
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
  children: React.ReactNode;
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
