import type { AudioFile } from '@mesmer/shared/api/files';
import { useQueryClient } from '@tanstack/react-query';
import { type Dispatch, type MutableRefObject, type SetStateAction, useState } from 'react';
import { ApiError } from '../../lib/api-client.ts';
import { toast } from '../../ui/index.ts';
import { editorCuesQuery, useSaveCues } from './api.ts';
import { createEditorState, documentCues, type EditorState } from './model/cue-document.ts';
import { type EditorStart, forgetDraft, useDraftAutosave } from './useCueDraft.ts';
import { plural } from './wording.ts';

/**
 * Never losing work: the draft in this browser, saving against the revision the editing started
 * from, and the choices after a conflict (409) or on a restored draft. Problems land in `error`.
 */
export function useCueSaving({
  file,
  start,
  state,
  stateRef,
  setState,
  announce,
}: {
  file: AudioFile;
  start: EditorStart;
  state: EditorState;
  stateRef: MutableRefObject<EditorState>;
  setState: Dispatch<SetStateAction<EditorState>>;
  announce: (message: string) => void;
}) {
  const durationMs = Math.max(1, file.duration);
  const client = useQueryClient();
  const save = useSaveCues(file.id);
  const [revision, setRevision] = useState(start.revision);
  const [restoredAt, setRestoredAt] = useState(start.restoredAt);
  const [conflict, setConflict] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useDraftAutosave(file.id, state, revision);

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
      forgetDraft(file.id);
      announce('Draft discarded');
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return {
    saving: save.isPending,
    save: doSave,
    /** When a draft from this browser was restored (until saved or discarded). */
    restoredAt,
    discard,
    /** The server's message after a 409; null when there is no conflict to settle. */
    conflict,
    closeConflict: () => setConflict(null),
    keepMine,
    loadTheirs,
    error,
    setError,
  };
}
