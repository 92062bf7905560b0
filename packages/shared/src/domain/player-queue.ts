/**
 * The player's queue as a pure reducer: which track plays, what happens when one ends,
 * next / previous, shuffle, loop modes and counts, and training-plan day completion.
 * The web player keeps the audio element in step with the state this returns.
 */

/** Loop modes as the spec numbers them. */
export const LOOP_OFF = 1;
export const LOOP_TRACK = 2;
export const LOOP_PLAYLIST = 3;
export type LoopMode = typeof LOOP_OFF | typeof LOOP_TRACK | typeof LOOP_PLAYLIST;
export const LOOP_MODES: readonly LoopMode[] = [LOOP_OFF, LOOP_TRACK, LOOP_PLAYLIST];
export const LOOP_MODE_LABELS: Record<LoopMode, string> = {
  [LOOP_OFF]: 'Off',
  [LOOP_TRACK]: 'Current track',
  [LOOP_PLAYLIST]: 'Entire playlist',
};

export const MIN_LOOP_COUNT = 1;
export const MAX_LOOP_COUNT = 1_000_000;

/**
 * A loop count from user input: a whole number from 1 to 1,000,000, or null for
 * unlimited. Anything else (empty, not a number, fractional, out of range) is unlimited.
 */
export function parseLoopCount(input: unknown): number | null {
  const text = typeof input === 'number' ? String(input) : typeof input === 'string' ? input.trim() : '';
  if (!/^\d+$/.test(text)) return null;
  const count = Number(text);
  return count >= MIN_LOOP_COUNT && count <= MAX_LOOP_COUNT ? count : null;
}

export function isLoopMode(value: unknown): value is LoopMode {
  return LOOP_MODES.includes(value as LoopMode);
}

/** What the queue needs to know about a track. */
export interface QueueItem {
  /** Switched off in the playlist: kept in the queue but skipped. */
  disabled?: boolean;
  /** Needs a membership tier the listener lacks. */
  isLocked?: boolean;
  /** null when the file is locked for this listener. */
  audioURL?: string | null;
}

export function isPlayable(item: QueueItem): boolean {
  return !item.disabled && !item.isLocked && item.audioURL !== null;
}

/** The training-plan day a queue was started from. */
export interface QueuePlan {
  id: number;
  /** 0-based day. */
  dayIndex: number;
  dayCount: number;
}

export interface QueueState<T extends QueueItem = QueueItem, P extends QueuePlan = QueuePlan> {
  tracks: T[];
  /** The selected track, -1 when none. */
  index: number;
  playing: boolean;
  loopMode: LoopMode;
  /** How many times the loop repeats (1 to 1,000,000); null is unlimited. */
  loopCount: number | null;
  /** Repeats done so far: of the current track (track loop) or of the queue (playlist loop). */
  currentLoop: number;
  shuffle: boolean;
  /** Indexes played in this pass through the queue, oldest first, the current track last. */
  history: number[];
  /** Bumped whenever a track starts from its beginning (another track, or the same one again). */
  starts: number;
  /** Bumped whenever playback finishes the last track of a pass through the queue by itself. */
  passesFinished: number;
  plan: P | null;
}

export type QueueAction<T extends QueueItem = QueueItem, P extends QueuePlan = QueuePlan> =
  /** Replace the queue and start at the first playable track from startIndex. */
  | { type: 'load'; tracks: T[]; startIndex: number; plan?: P | null }
  | { type: 'play' }
  | { type: 'pause' }
  /** The current track played to its end. `random` in [0, 1) picks shuffled tracks. */
  | { type: 'ended'; random: number }
  | { type: 'next'; random: number }
  | { type: 'previous' }
  /** Jump to a track of the current queue. */
  | { type: 'select'; index: number }
  /** Replace one track (a fresh signed URL, or the news that it is locked now). */
  | { type: 'updateTrack'; index: number; track: T }
  | { type: 'setLoopMode'; loopMode: LoopMode }
  | { type: 'setLoopCount'; loopCount: number | null }
  | { type: 'setShuffle'; shuffle: boolean }
  | { type: 'clear' };

export interface QueuePreferences {
  loopMode: LoopMode;
  loopCount: number | null;
  shuffle: boolean;
}

export const DEFAULT_QUEUE_PREFERENCES: QueuePreferences = {
  loopMode: LOOP_OFF,
  loopCount: null,
  shuffle: false,
};

export function initialQueueState<T extends QueueItem = QueueItem, P extends QueuePlan = QueuePlan>(
  prefs: QueuePreferences = DEFAULT_QUEUE_PREFERENCES,
): QueueState<T, P> {
  return {
    tracks: [],
    index: -1,
    playing: false,
    loopMode: prefs.loopMode,
    loopCount: prefs.loopCount,
    currentLoop: 0,
    shuffle: prefs.shuffle,
    history: [],
    starts: 0,
    passesFinished: 0,
    plan: null,
  };
}

function playableIndexes(tracks: readonly QueueItem[]): number[] {
  return tracks.flatMap((t, i) => (isPlayable(t) ? [i] : []));
}

function pick(indexes: readonly number[], random: number): number {
  const i = Math.min(indexes.length - 1, Math.max(0, Math.floor(random * indexes.length)));
  return indexes[i];
}

function loopsLeft(state: QueueState<QueueItem, QueuePlan>): boolean {
  return state.loopCount === null || state.currentLoop < state.loopCount;
}

/** Starts track `index` from its beginning; `newPass` begins a fresh pass through the queue. */
function startTrack<S extends QueueState<QueueItem, QueuePlan>>(state: S, index: number, newPass = false): S {
  return {
    ...state,
    index,
    history: newPass ? [index] : [...state.history, index],
    starts: state.starts + 1,
    // A track loop counts repeats of one track; a new track starts from zero.
    currentLoop: state.loopMode === LOOP_TRACK && index !== state.index ? 0 : state.currentLoop,
  };
}

/** The track after the current one in this pass, or -1 at the end of the pass. */
function nextInPass(state: QueueState<QueueItem, QueuePlan>, random: number): number {
  const playable = playableIndexes(state.tracks);
  if (state.shuffle) {
    const unplayed = playable.filter((i) => !state.history.includes(i) && i !== state.index);
    return unplayed.length > 0 ? pick(unplayed, random) : -1;
  }
  return playable.find((i) => i > state.index) ?? -1;
}

/** The first track of a new pass: the first playable one, or with shuffle a random different one. */
function firstOfPass(state: QueueState<QueueItem, QueuePlan>, random: number): number {
  const playable = playableIndexes(state.tracks);
  if (!state.shuffle) return playable[0] ?? -1;
  const others = playable.filter((i) => i !== state.index);
  return others.length > 0 ? pick(others, random) : (playable[0] ?? -1);
}

/**
 * Moves on after the current track. At the end of a pass a playlist loop starts the
 * next pass while repeats are left; otherwise a natural end stops and a manual skip
 * does nothing.
 */
function advance<S extends QueueState<QueueItem, QueuePlan>>(state: S, random: number, natural: boolean): S {
  const next = nextInPass(state, random);
  if (next !== -1) return startTrack(state, next);
  const passesFinished = natural ? state.passesFinished + 1 : state.passesFinished;
  if (state.loopMode === LOOP_PLAYLIST && loopsLeft(state)) {
    const first = firstOfPass(state, random);
    if (first !== -1) {
      return { ...startTrack(state, first, true), currentLoop: state.currentLoop + 1, passesFinished };
    }
  }
  if (!natural) return state;
  return { ...state, playing: false, currentLoop: 0, passesFinished };
}

/** After the current track became unplayable: the next playable one (wrapping), or stop. */
function skipUnplayable<S extends QueueState<QueueItem, QueuePlan>>(state: S): S {
  const playable = playableIndexes(state.tracks);
  const next = playable.find((i) => i > state.index) ?? playable[0];
  if (next === undefined) return { ...state, playing: false };
  return startTrack(state, next);
}

export function queueReducer<T extends QueueItem, P extends QueuePlan>(
  state: QueueState<T, P>,
  action: QueueAction<T, P>,
): QueueState<T, P> {
  switch (action.type) {
    case 'load': {
      const playable = playableIndexes(action.tracks);
      const index = playable.find((i) => i >= action.startIndex) ?? playable[0] ?? -1;
      return {
        ...state,
        tracks: action.tracks,
        plan: action.plan ?? null,
        index,
        playing: index !== -1,
        currentLoop: 0,
        history: index === -1 ? [] : [index],
        starts: index === -1 ? state.starts : state.starts + 1,
      };
    }
    case 'play':
      return state.index === -1 || state.playing ? state : { ...state, playing: true };
    case 'pause':
      return state.playing ? { ...state, playing: false } : state;
    case 'ended': {
      if (state.index === -1) return state;
      if (state.loopMode === LOOP_TRACK && loopsLeft(state) && isPlayable(state.tracks[state.index])) {
        return { ...state, currentLoop: state.currentLoop + 1, starts: state.starts + 1 };
      }
      return advance(state, action.random, true);
    }
    case 'next':
      return state.index === -1 ? state : advance(state, action.random, false);
    case 'previous': {
      if (state.index === -1) return state;
      if (state.shuffle) {
        if (state.history.length < 2) return state;
        const previous = state.history[state.history.length - 2];
        return { ...startTrack(state, previous), history: state.history.slice(0, -1) };
      }
      const playable = playableIndexes(state.tracks);
      const before = playable.filter((i) => i < state.index);
      if (before.length > 0) return startTrack(state, before[before.length - 1]);
      if (state.loopMode === LOOP_PLAYLIST) {
        const last = playable[playable.length - 1];
        if (last !== undefined && last !== state.index) return startTrack(state, last);
      }
      return state;
    }
    case 'select': {
      const track = state.tracks[action.index];
      if (!track || !isPlayable(track)) return state;
      return { ...startTrack(state, action.index), playing: true };
    }
    case 'updateTrack': {
      if (!state.tracks[action.index]) return state;
      const tracks = state.tracks.map((t, i) => (i === action.index ? action.track : t));
      const updated = { ...state, tracks };
      if (action.index === state.index && !isPlayable(action.track)) return skipUnplayable(updated);
      return updated;
    }
    case 'setLoopMode':
      return { ...state, loopMode: action.loopMode, currentLoop: 0 };
    case 'setLoopCount':
      return { ...state, loopCount: parseLoopCount(action.loopCount) };
    case 'setShuffle':
      return { ...state, shuffle: action.shuffle, history: state.index === -1 ? [] : [state.index] };
    case 'clear':
      return { ...state, tracks: [], index: -1, playing: false, currentLoop: 0, history: [], plan: null };
  }
}

/** Whether Next would move to another track. */
export function canGoNext(state: QueueState<QueueItem, QueuePlan>): boolean {
  return state.index !== -1 && advance(state, 0, false) !== state;
}

/** Whether Previous would move to another track. */
export function canGoPrevious(state: QueueState<QueueItem, QueuePlan>): boolean {
  return state.index !== -1 && queueReducer(state, { type: 'previous' }) !== state;
}

/**
 * A training plan's 1-based position after its day `dayIndex` (0-based) was listened
 * to the end: finishing the current day (position dayIndex + 1) unlocks the next one;
 * finishing an earlier or a locked day changes nothing. Never beyond dayCount + 1.
 */
export function planPositionAfterDay(position: number, dayIndex: number, dayCount: number): number {
  if (dayIndex + 1 !== position) return position;
  return Math.min(position + 1, dayCount + 1);
}
