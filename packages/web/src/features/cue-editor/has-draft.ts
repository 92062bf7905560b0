import { draftKey } from './model/draft.ts';

/** Whether this browser keeps an unsaved cue draft for the file (the edit mode then opens the cue editor). */
export function hasCueDraft(fileId: number): boolean {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(draftKey(fileId)) !== null;
  } catch {
    return false;
  }
}
