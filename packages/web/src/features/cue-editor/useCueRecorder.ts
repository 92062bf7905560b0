import type { HapticCue } from '@mesmer/shared/domain/haptic-cues';
import { type MutableRefObject, useCallback, useEffect, useRef, useState } from 'react';
import { documentCues, type EditorState } from './model/cue-document.ts';
import {
  finishRecording,
  pressKey,
  type Recording,
  recordedCues,
  releaseKey,
  setRecordingStrength,
  startRecording,
} from './model/recording.ts';
import type { useCuePreview } from './useCuePreview.ts';
import { plural } from './wording.ts';

/**
 * Recording while listening (model/recording.ts): armed from the cursor (starting the preview when
 * it is paused), a held key or button lays a cue, and the recording is written into the document,
 * as one undo step, when it is stopped or the playback pauses (player bar, wake-up button, end).
 */
export function useCueRecorder({
  preview,
  stateRef,
  setState,
  announce,
  cursorMs,
  onWritten,
  strength,
}: {
  preview: ReturnType<typeof useCuePreview>;
  stateRef: MutableRefObject<EditorState>;
  setState: (state: EditorState) => void;
  announce: (message: string) => void;
  cursorMs: number;
  /** After cues were recorded: where the recording stopped. */
  onWritten: (atMs: number) => void;
  /** The strength of newly laid cues. */
  strength: number;
}) {
  const { playing, position } = preview;
  const rec = useRef<Recording | null>(null);
  const [recording, setRecording] = useState(false);
  const now = (r: Recording) => position() ?? r.lastMs;

  // The callbacks as of the last render: `finish` must not change identity with them (see below).
  const latest = useRef({ setState, announce, onWritten });
  latest.current = { setState, announce, onWritten };
  const finish = useCallback(() => {
    const r = rec.current;
    if (!r) return;
    rec.current = null;
    setRecording(false);
    const at = position() ?? r.lastMs;
    const before = stateRef.current;
    const after = finishRecording(before, r, at);
    latest.current.setState(after);
    latest.current.announce(
      after === before
        ? 'Recording stopped, no cues recorded'
        : `Recorded ${plural(after.selection.size, 'cue')}`,
    );
    if (after.selection.size > 0) latest.current.onWritten(at);
  }, [position, stateRef]);
  // Runs when the playback pauses, not on every render: armed, the player may not have started yet.
  useEffect(() => {
    if (!playing && rec.current) finish();
  }, [playing, finish]);

  const arm = () => {
    if (rec.current) return;
    const at = playing ? (position() ?? cursorMs) : cursorMs;
    if (!playing) preview.start(documentCues(stateRef.current), cursorMs);
    rec.current = startRecording(at, strength);
    setRecording(true);
    announce('Recording: hold R or the Hold button to lay down cues');
  };
  return {
    recording,
    /** Whether a recording is armed now (read in event handlers, before a render shows it). */
    active: () => rec.current !== null,
    /** The cues laid so far, for the canvas to draw every frame. */
    recorded: (): readonly HapticCue[] => (rec.current ? recordedCues(rec.current, now(rec.current)) : []),
    arm,
    press: () => {
      arm();
      const r = rec.current;
      if (r) rec.current = pressKey(r, now(r), strength);
    },
    release: () => {
      const r = rec.current;
      if (r) rec.current = releaseKey(r, now(r));
    },
    stop: () => {
      finish();
      preview.stop();
    },
    /** A new strength for the cue being held (a held cue splits where it changes). */
    setStrength: (s: number) => {
      const r = rec.current;
      if (r) rec.current = setRecordingStrength(r, now(r), s);
    },
  };
}
