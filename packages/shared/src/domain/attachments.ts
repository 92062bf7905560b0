/**
 * Files attached to an audio file: a haptic cue file (the JSON list haptic-cues.ts plays), a
 * Funscript (converted to cues on upload, see funscript.ts) or a text script. Each is checked
 * strictly here, so a bad upload is refused with the first problem named instead of being dropped
 * silently at playback.
 */
import type { HapticCue } from './haptic-cues.ts';

export const ATTACHMENT_KINDS = ['haptics', 'funscript', 'script'] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];
/** What an attachment is stored as: a Funscript becomes the file's haptics. */
export const STORED_ATTACHMENT_KINDS = ['haptics', 'script'] as const;
export type StoredAttachmentKind = (typeof STORED_ATTACHMENT_KINDS)[number];

export function storedKindOf(kind: AttachmentKind): StoredAttachmentKind {
  return kind === 'script' ? 'script' : 'haptics';
}

/** The largest attachment accepted: 5 MB (5,000,000 bytes). */
export const MAX_ATTACHMENT_BYTES = 5_000_000;
export const ATTACHMENT_TOO_LARGE_MESSAGE = 'An attachment may be at most 5 MB.';
/** The most cues one file may have (a cue every 100 ms for over 2.5 hours). */
export const MAX_CUES = 100_000;

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });

/** Text as UTF-8, or why not. */
export function decodeUtf8(bytes: Uint8Array): Checked<string> {
  try {
    return { ok: true, value: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return fail('The file is not UTF-8 text.');
  }
}

/** A script: non-empty UTF-8 text without NUL characters. */
export function checkScript(bytes: Uint8Array): Checked<string> {
  const text = decodeUtf8(bytes);
  if (!text.ok) return text;
  if (text.value.includes('\0')) return fail('The script contains NUL characters.');
  if (text.value.trim() === '') return fail('The script is empty.');
  return text;
}

/** The deepest nesting of lists and objects an attachment may have (a Funscript needs 3). */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests lists and objects deeper than `max`: one pass over the characters,
 * brackets inside strings not counted. Run before JSON.parse, whose time and memory grow with
 * the nesting of what it builds.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Parses JSON text of at most MAX_ATTACHMENT_BYTES characters and MAX_JSON_DEPTH levels, or says why not. */
export function parseJson(text: string): Checked<unknown> {
  if (text.length > MAX_ATTACHMENT_BYTES) return fail(ATTACHMENT_TOO_LARGE_MESSAGE);
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    return fail(`The file nests lists or objects deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return fail('The file is not valid JSON.');
  }
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * A cue file: a non-empty JSON list of `{time, stopTime, strength}` (milliseconds from the start,
 * 0 ≤ time < stopTime; strength 0 to 1), at most MAX_CUES. The first bad entry is named by its
 * 1-based position. The cues come back in start order, with only those three fields.
 */
export function checkCueFile(data: unknown): Checked<HapticCue[]> {
  if (!Array.isArray(data)) return fail('A cue file must be a JSON list of {time, stopTime, strength}.');
  if (data.length === 0) return fail('The cue file has no cues.');
  if (data.length > MAX_CUES) return fail(`A cue file may have at most ${MAX_CUES} cues.`);
  const cues: HapticCue[] = [];
  for (const [index, entry] of data.entries()) {
    const at = `Cue ${index + 1}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      return fail(`${at}: must be an object {time, stopTime, strength}.`);
    }
    const { time, stopTime, strength } = entry as Record<string, unknown>;
    if (!isNumber(time) || time < 0) return fail(`${at}: time must be a number of milliseconds ≥ 0.`);
    if (!isNumber(stopTime) || stopTime <= time) return fail(`${at}: stopTime must be a number after time.`);
    if (!isNumber(strength) || strength < 0 || strength > 1) {
      return fail(`${at}: strength must be a number from 0 to 1.`);
    }
    cues.push({ time, stopTime, strength });
  }
  return { ok: true, value: cues.sort((a, b) => a.time - b.time) };
}
