import type { AudioFile, FileCues } from '@mesmer/shared/api/files';
import type { HapticCue } from '@mesmer/shared/domain/haptic-cues';
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { ErrorState, FormError, LoadingState, toast } from '../../ui/index.ts';
import { editorCuesQuery } from './api.ts';
import { CueFileActions } from './CueFileActions.tsx';
import styles from './cue-editor.module.css';
import type { TimelineGesture } from './drag-preview.ts';
import { ConflictDialog, ShortcutsDialog } from './EditorDialogs.tsx';
import { EditorToolbar, type SnapSettings } from './EditorToolbar.tsx';
import { type EditorAction, editorActionFor } from './editor-keys.ts';
import { Inspector } from './Inspector.tsx';
import {
  addCue,
  canRedo,
  canUndo,
  changeStrength,
  clearSelection,
  copyCues,
  cutCues,
  documentCues,
  type EditorState,
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
import { DEFAULT_RECORDING_STRENGTH } from './model/recording.ts';
import { snapTime } from './model/snapping.ts';
import { fitView, msToPx, scrollToShow, type TimelineView, ZOOM_STEP, zoomAt } from './model/timeline.ts';
import { Timeline } from './Timeline.tsx';
import { Transport } from './Transport.tsx';
import { formatTime } from './timeline-view.ts';
import { startFrom } from './useCueDraft.ts';
import { useCuePreview } from './useCuePreview.ts';
import { useCueRecorder } from './useCueRecorder.ts';
import { useCueSaving } from './useCueSaving.ts';
import { useTimelinePeaks } from './useTimelinePeaks.ts';
import { plural } from './wording.ts';

/** Snapping reaches this many pixels. */
const SNAP_PX = 8;
/** A cue added from the keyboard (N) is this long when there is no grid. */
const KEY_CUE_MS = 500;

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

const DRAG_DONE: Record<TimelineGesture['kind'], (count: number) => string> = {
  move: (n) => `Moved ${plural(n, 'cue')}`,
  resize: () => 'Cue resized',
  strength: (n) => `Strength changed for ${plural(n, 'cue')}`,
};

/** A finished drag applied to the document: one undo step. */
function applyDrag(state: EditorState, g: TimelineGesture): EditorState {
  if (g.kind === 'move') return moveCues(state, g.ids, g.deltaMs);
  if (g.kind === 'resize') return resizeCue(state, g.id, g.edge, g.toMs);
  return changeStrength(state, g.ids, g.delta);
}

/**
 * The haptic cue editor of a file's edit mode: the cues as blocks under the waveform, edited with
 * pointer and keyboard, recorded while listening, previewed on the connected toy through the
 * player, kept as a draft in this browser until saved (PUT /api/files/cues, with a conflict check).
 * A drag is previewed by the timeline alone; this component renders once when it ends.
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

function EditorBody({ file, loaded }: { file: AudioFile; loaded: FileCues }) {
  const durationMs = Math.max(1, file.duration);
  const narrow = useNarrow();
  const [start] = useState(() => startFrom(file, loaded));
  const [state, setState] = useState(start.state);
  const stateRef = useRef(state);
  stateRef.current = state;
  const [view, setView] = useState<TimelineView>(() => fitView(durationMs, 800));
  const [cursorMs, setCursorMs] = useState(0);
  const [focusId, setFocusId] = useState<number | null>(null);
  const [snap, setSnap] = useState<SnapSettings>({ on: true, to: 'grid', gridMs: 100 });
  const [strength, setNewStrength] = useState(DEFAULT_RECORDING_STRENGTH);
  const [announcement, setAnnouncement] = useState('');
  const [help, setHelp] = useState(false);
  const preview = useCuePreview(file);
  const { peaks, snapPeaks } = useTimelinePeaks(file.id, view, durationMs);

  const announce = (message: string) => setAnnouncement(message);
  const saving = useCueSaving({ file, start, state, stateRef, setState, announce });
  const apply = (change: (s: EditorState) => EditorState, message?: string) => {
    setState(change);
    if (message) announce(message);
  };

  const snapMs = (ms: number) =>
    snap.on
      ? snapTime(ms, {
          gridMs: snap.to === 'grid' ? snap.gridMs : undefined,
          peaksTimes: snap.to === 'peaks' ? snapPeaks : undefined,
          toleranceMs: SNAP_PX * view.msPerPx,
        })
      : ms;

  // --- playback: preview, recording, following the playhead --------------------------------
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

  const recorder = useCueRecorder({
    preview,
    stateRef,
    setState,
    announce,
    cursorMs,
    onWritten: (at) => setCursorMs(Math.min(at, durationMs)),
    strength,
  });
  const recording = recorder.recording;
  const playFromCursor = () => preview.start(documentCues(stateRef.current), cursorMs);

  // --- edits ---------------------------------------------------------------------------------
  const selectCues = (ids: number[], mode: SelectMode) => {
    const next = select(stateRef.current, ids, mode);
    setState(next);
    if (ids.length > 0) setFocusId(ids[ids.length - 1]);
    announce(
      next.selection.size === 0 ? 'Selection cleared' : `${plural(next.selection.size, 'cue')} selected`,
    );
  };

  const onDragEnd = (g: TimelineGesture) =>
    apply((s) => applyDrag(s, g), DRAG_DONE[g.kind](g.kind === 'resize' ? 1 : g.ids.length));

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
        if (recorder.active()) return recorder.stop();
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
        if (recorder.active()) {
          recorder.setStrength(action.strength);
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
        return recorder.press();
      case 'addAtCursor':
        return addAtCursor();
      case 'toggleSnap':
        setSnap((x) => ({ ...x, on: !x.on }));
        return announce(snap.on ? 'Snapping off' : 'Snapping on');
      case 'save':
        return saving.save();
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
    if (e.key.toLowerCase() === 'r' && !e.ctrlKey && !e.metaKey) recorder.release();
  };

  const selected = selectedCues(state);
  const dirty = isDirty(state);
  const playheadText = formatTime(position() ?? cursorMs);
  const setRecordStrength = (s: number) => {
    setNewStrength(s);
    recorder.setStrength(s);
  };
  const onImported = (cues: HapticCue[]) => {
    apply((s) => replaceAll(s, cues), `Imported ${plural(cues.length, 'cue')}`);
    toast('success', `Imported ${plural(cues.length, 'cue')}.`, 'Undo puts the previous cues back.');
  };

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
      {saving.restoredAt !== null && (
        <div className={styles.notice} role="status">
          <span>
            A draft from {new Date(saving.restoredAt).toLocaleString()} was restored from this browser.
          </span>
          <button type="button" className="btn btn-ghost btn-small" onClick={saving.discard}>
            Discard draft
          </button>
        </div>
      )}

      <EditorToolbar
        fieldId={String(file.id)}
        canUndo={canUndo(state)}
        canRedo={canRedo(state)}
        hasSelection={selected.length > 0}
        canPaste={state.clipboard.length > 0}
        snap={snap}
        onSnap={setSnap}
        onAction={run}
      />

      <div className={styles.timeline}>
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
          recorded={recorder.recorded}
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
          onGesture={onDragEnd}
          height={narrow ? 168 : 220}
          label={`Cue timeline of ${file.name}`}
        />
      </div>

      <Transport
        playing={playing}
        recording={recording}
        onPlay={() => (playing ? preview.stop() : playFromCursor())}
        onRecord={() => (recording ? recorder.stop() : recorder.arm())}
        onHoldPress={recorder.press}
        onHoldRelease={recorder.release}
        strength={strength}
        onStrength={setRecordStrength}
        level={preview.level}
        maxLevel={preview.maxLevel}
        timeText={playheadText}
      />

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

      <FormError message={saving.error} />
      <CueFileActions
        fileName={file.name}
        cues={() => documentCues(stateRef.current)}
        onImported={onImported}
        onError={saving.setError}
        onSave={saving.save}
        saving={saving.saving}
        dirty={dirty}
      />

      <p className="visually-hidden" aria-live="polite" data-testid="cue-announcer">
        {announcement}
      </p>

      <ShortcutsDialog open={help} onClose={() => setHelp(false)} />
      <ConflictDialog
        message={saving.conflict}
        onClose={saving.closeConflict}
        onLoadTheirs={saving.loadTheirs}
        onKeepMine={saving.keepMine}
      />
    </div>
  );
}
