/**
 * Import and export of the editor's cues: Mesmer's cue file (the haptics attachment, a JSON list
 * of {time, stopTime, strength}) and Funscript, with the same checks as an upload.
 */
import { type Checked, checkCueFile, parseJson } from '@mesmer/shared/domain/attachments';
import { cuesToFunscript, funscriptToCues } from '@mesmer/shared/domain/funscript';
import type { HapticCue } from '@mesmer/shared/domain/haptic-cues';

export type CueFormat = 'cues' | 'funscript';

/** The format of a file by its name: `.funscript` is a Funscript, anything else a cue file. */
export function formatOfFileName(name: string): CueFormat {
  return name.toLowerCase().endsWith('.funscript') ? 'funscript' : 'cues';
}

/**
 * The cues of an imported file's text, or why it cannot be imported (the upload's messages).
 * Without a format, a JSON list is a cue file and an object a Funscript.
 */
export function importCues(text: string, format?: CueFormat): Checked<HapticCue[]> {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const kind = format ?? (Array.isArray(parsed.value) ? 'cues' : 'funscript');
  return kind === 'funscript' ? funscriptToCues(parsed.value) : checkCueFile(parsed.value);
}

/** A cue file's text: the list of {time, stopTime, strength} (ids left out). */
export function exportCueFile(cues: readonly HapticCue[]): string {
  return JSON.stringify(cues.map(({ time, stopTime, strength }) => ({ time, stopTime, strength })));
}

/** A Funscript's text, or why there is nothing to export (no cue with a strength above 0). */
export function exportFunscript(cues: readonly HapticCue[]): Checked<string> {
  const script = cuesToFunscript(cues);
  return script.ok ? { ok: true, value: JSON.stringify(script.value) } : script;
}

/** Characters a file name may not hold on common systems (control characters are caught apart). */
const UNSAFE_IN_NAME = new Set('\\/:*?"<>|');

/** A download name for the exported file, from the audio file's name. */
export function exportFileName(fileName: string, format: CueFormat): string {
  const safe = Array.from(fileName, (ch) => (ch < ' ' || UNSAFE_IN_NAME.has(ch) ? ' ' : ch)).join('');
  const stem = safe.replace(/ +/g, ' ').trim().slice(0, 100) || 'cues';
  return `${stem}.${format === 'funscript' ? 'funscript' : 'cues.json'}`;
}
