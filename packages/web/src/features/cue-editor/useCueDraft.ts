import type { AudioFile, FileCues } from '@mesmer/shared/api/files';
import { useCallback, useEffect, useRef } from 'react';
import {
  createEditorState,
  documentCues,
  type EditorState,
  isDirty,
  replaceAll,
} from './model/cue-document.ts';
import { discardDraft, loadDraft, saveDraft } from './model/draft.ts';

/** Edits are written to the browser's draft this long after the last one. */
const DRAFT_DELAY_MS = 400;

function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export interface EditorStart {
  state: EditorState;
  revision: number;
  /** When a draft from this browser was restored: its time. */
  restoredAt: number | null;
}

/** The editor's first state: the loaded cues, or this browser's draft of them when it differs. */
export function startFrom(file: AudioFile, loaded: FileCues): EditorStart {
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

export function forgetDraft(fileId: number) {
  const storage = browserStorage();
  if (storage) discardDraft(storage, fileId);
}

/**
 * Keeps the document in this browser while it differs from the saved one (written shortly after
 * each edit, and when the page goes away); a clean document removes the draft.
 */
export function useDraftAutosave(fileId: number, state: EditorState, revision: number) {
  const input = useRef({ state, revision });
  input.current = { state, revision };
  const writeDraft = useCallback(() => {
    const storage = browserStorage();
    const { state: s, revision: r } = input.current;
    if (!storage) return;
    if (isDirty(s))
      saveDraft(storage, fileId, { baseVersion: r, savedAt: Date.now(), cues: documentCues(s) });
    else discardDraft(storage, fileId);
  }, [fileId]);
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
}
