import { describe, expect, it } from 'vitest';
import {
  canGoNext,
  canGoPrevious,
  initialQueueState,
  isPlayable,
  LOOP_OFF,
  LOOP_PLAYLIST,
  LOOP_TRACK,
  type LoopMode,
  parseLoopCount,
  planPositionAfterDay,
  type QueueAction,
  type QueueItem,
  type QueueState,
  queueReducer,
} from './player-queue.ts';

interface Track extends QueueItem {
  id: number;
}

const track = (id: number, extra: Partial<Track> = {}): Track => ({ id, audioURL: `/media/${id}`, ...extra });
const tracks = (n: number) => Array.from({ length: n }, (_, i) => track(i + 1));

function run(state: QueueState<Track>, ...actions: QueueAction<Track>[]): QueueState<Track> {
  return actions.reduce((s: QueueState<Track>, a) => queueReducer(s, a), state);
}

function loaded(
  list: Track[],
  opts: { startIndex?: number; loopMode?: LoopMode; loopCount?: number | null; shuffle?: boolean } = {},
) {
  return run(
    initialQueueState<Track>({
      loopMode: opts.loopMode ?? LOOP_OFF,
      loopCount: opts.loopCount ?? null,
      shuffle: opts.shuffle ?? false,
    }),
    { type: 'load', tracks: list, startIndex: opts.startIndex ?? 0 },
  );
}

const ended = (random = 0): QueueAction<Track> => ({ type: 'ended', random });
const next = (random = 0): QueueAction<Track> => ({ type: 'next', random });
const previous: QueueAction<Track> = { type: 'previous' };

describe('parseLoopCount', () => {
  it.each([
    ['1', 1],
    ['5', 5],
    [' 12 ', 12],
    ['1000000', 1_000_000],
    [3, 3],
  ])('%j is %j', (input, count) => {
    expect(parseLoopCount(input)).toBe(count);
  });

  it.each(['', '0', '1000001', '-3', '2.5', 'abc', '1e3', '∞', null, undefined, Number.NaN, 0, 2.5, {}])(
    '%j is unlimited (null)',
    (input) => {
      expect(parseLoopCount(input)).toBeNull();
    },
  );
});

describe('isPlayable', () => {
  it('skips disabled and locked tracks and tracks without an audio URL', () => {
    expect(isPlayable(track(1))).toBe(true);
    expect(isPlayable({})).toBe(true);
    expect(isPlayable(track(1, { disabled: true }))).toBe(false);
    expect(isPlayable(track(1, { isLocked: true }))).toBe(false);
    expect(isPlayable(track(1, { audioURL: null }))).toBe(false);
  });
});

describe('load', () => {
  it('starts playing at the requested track with the counters reset', () => {
    const s = loaded(tracks(3), { startIndex: 1 });
    expect(s).toMatchObject({ index: 1, playing: true, currentLoop: 0, history: [1], starts: 1, plan: null });
  });

  it('starts at the first playable track from the requested one', () => {
    const list = [track(1), track(2, { disabled: true }), track(3, { audioURL: null }), track(4)];
    expect(loaded(list, { startIndex: 1 }).index).toBe(3);
  });

  it('wraps to the first playable track when none follows', () => {
    const list = [track(1), track(2), track(3, { isLocked: true })];
    expect(loaded(list, { startIndex: 2 }).index).toBe(0);
  });

  it('selects nothing and stays stopped when every track is locked or disabled', () => {
    const s = loaded([track(1, { isLocked: true }), track(2, { disabled: true })]);
    expect(s).toMatchObject({ index: -1, playing: false, history: [], starts: 0 });
  });

  it('keeps the plan and resets the loop counter', () => {
    const plan = { id: 7, dayIndex: 2, dayCount: 5 };
    const s = run(loaded(tracks(1), { loopMode: LOOP_TRACK }), ended(), {
      type: 'load',
      tracks: tracks(2),
      startIndex: 0,
      plan,
    });
    expect(s.plan).toEqual(plan);
    expect(s.currentLoop).toBe(0);
  });
});

describe('play and pause', () => {
  it('toggles the playing flag', () => {
    const s = loaded(tracks(2));
    const paused = run(s, { type: 'pause' });
    expect(paused.playing).toBe(false);
    expect(run(paused, { type: 'play' }).playing).toBe(true);
  });

  it('returns the same state when nothing changes', () => {
    const s = loaded(tracks(2));
    expect(run(s, { type: 'play' })).toBe(s);
    const empty = initialQueueState<Track>();
    expect(run(empty, { type: 'play' })).toBe(empty);
    expect(run(empty, { type: 'pause' })).toBe(empty);
  });
});

describe('loop off', () => {
  it('plays the next enabled track when one ends', () => {
    const list = [track(1), track(2, { disabled: true }), track(3, { isLocked: true }), track(4)];
    const s = run(loaded(list), ended());
    expect(s).toMatchObject({ index: 3, playing: true, starts: 2, history: [0, 3] });
  });

  it('stops after the last track and counts the finished pass', () => {
    const s = run(loaded(tracks(2)), ended(), ended());
    expect(s).toMatchObject({ index: 1, playing: false, passesFinished: 1 });
  });

  it('stops when only locked tracks remain', () => {
    const list = [track(1), track(2, { isLocked: true }), track(3, { audioURL: null })];
    expect(run(loaded(list), ended())).toMatchObject({ index: 0, playing: false, passesFinished: 1 });
  });

  it('Next skips disabled and locked tracks', () => {
    const list = [track(1), track(2, { disabled: true }), track(3)];
    expect(run(loaded(list), next()).index).toBe(2);
  });

  it('Next on the last track does nothing and does not count a pass', () => {
    const s = run(loaded(tracks(2)), next());
    expect(run(s, next())).toBe(s);
    expect(canGoNext(s)).toBe(false);
  });

  it('Previous goes to the previous playable track, and does nothing on the first', () => {
    const list = [track(1), track(2, { disabled: true }), track(3)];
    const s = run(loaded(list, { startIndex: 2 }), previous);
    expect(s.index).toBe(0);
    expect(run(s, previous)).toBe(s);
    expect(canGoPrevious(s)).toBe(false);
  });

  it('Next and Previous keep a paused player paused', () => {
    const s = run(loaded(tracks(3)), { type: 'pause' }, next());
    expect(s).toMatchObject({ index: 1, playing: false, starts: 2 });
    expect(run(s, previous)).toMatchObject({ index: 0, playing: false, starts: 3 });
  });
});

describe('loop current track', () => {
  it('repeats the track the given number of times, then moves on', () => {
    let s = loaded(tracks(2), { loopMode: LOOP_TRACK, loopCount: 2 });
    s = run(s, ended());
    expect(s).toMatchObject({ index: 0, currentLoop: 1, starts: 2, playing: true });
    s = run(s, ended());
    expect(s).toMatchObject({ index: 0, currentLoop: 2, starts: 3 });
    s = run(s, ended());
    expect(s).toMatchObject({ index: 1, currentLoop: 0, starts: 4 });
  });

  it('repeats the next track as often again', () => {
    const s = run(loaded(tracks(2), { loopMode: LOOP_TRACK, loopCount: 1 }), ended(), ended(), ended());
    expect(s).toMatchObject({ index: 1, currentLoop: 1, playing: true });
    expect(run(s, ended())).toMatchObject({ index: 1, playing: false, currentLoop: 0, passesFinished: 1 });
  });

  it('repeats forever when the count is unlimited', () => {
    let s = loaded(tracks(2), { loopMode: LOOP_TRACK, loopCount: null });
    for (let i = 0; i < 50; i++) s = run(s, ended());
    expect(s).toMatchObject({ index: 0, currentLoop: 50, starts: 51, playing: true });
  });

  it('Next leaves the loop and starts the next track from a zero count', () => {
    const s = run(loaded(tracks(2), { loopMode: LOOP_TRACK, loopCount: 3 }), ended(), next());
    expect(s).toMatchObject({ index: 1, currentLoop: 0 });
  });
});

describe('loop entire playlist', () => {
  it('jumps from the last track to the first, counting one loop', () => {
    const s = run(loaded(tracks(2), { loopMode: LOOP_PLAYLIST, loopCount: 2 }), ended(), ended());
    expect(s).toMatchObject({ index: 0, currentLoop: 1, playing: true, passesFinished: 1, history: [0] });
  });

  it('stops once the playlist has repeated the given number of times', () => {
    let s = loaded(tracks(2), { loopMode: LOOP_PLAYLIST, loopCount: 1 });
    s = run(s, ended(), ended(), ended());
    expect(s).toMatchObject({ index: 1, currentLoop: 1, playing: true });
    s = run(s, ended());
    expect(s).toMatchObject({ index: 1, playing: false, currentLoop: 0, passesFinished: 2 });
  });

  it('repeats forever when unlimited', () => {
    let s = loaded(tracks(3), { loopMode: LOOP_PLAYLIST });
    for (let i = 0; i < 30; i++) s = run(s, ended());
    expect(s).toMatchObject({ index: 0, currentLoop: 10, passesFinished: 10, playing: true });
  });

  it('wraps to the first enabled track', () => {
    const list = [track(1, { disabled: true }), track(2), track(3)];
    const s = run(loaded(list, { loopMode: LOOP_PLAYLIST, startIndex: 2 }), ended());
    expect(s.index).toBe(1);
  });

  it('Next on the last track wraps and counts the loop but not a finished pass', () => {
    const s = run(loaded(tracks(2), { loopMode: LOOP_PLAYLIST, startIndex: 1 }), next());
    expect(s).toMatchObject({ index: 0, currentLoop: 1, passesFinished: 0 });
  });

  it('Previous on the first track wraps to the last', () => {
    const list = [track(1), track(2), track(3, { isLocked: true })];
    expect(run(loaded(list, { loopMode: LOOP_PLAYLIST }), previous).index).toBe(1);
  });

  it('a single-track playlist repeats its track', () => {
    const s = run(loaded(tracks(1), { loopMode: LOOP_PLAYLIST, loopCount: 5 }), ended());
    expect(s).toMatchObject({ index: 0, currentLoop: 1, starts: 2, playing: true });
    expect(canGoPrevious(s)).toBe(false);
  });
});

describe('shuffle', () => {
  it('picks a random different track with the injected random number', () => {
    const s = loaded(tracks(5), { shuffle: true });
    // Unplayed: 1, 2, 3, 4 → 0.5 picks the third of them.
    expect(run(s, ended(0.5)).index).toBe(3);
    expect(run(s, ended(0)).index).toBe(1);
    expect(run(s, ended(0.999)).index).toBe(4);
  });

  it('plays every playable track once per pass, then stops with loop off', () => {
    let s = loaded([track(1), track(2, { disabled: true }), track(3), track(4)], { shuffle: true });
    const seen = [s.index];
    for (let i = 0; i < 2; i++) {
      s = run(s, ended(0.99));
      seen.push(s.index);
    }
    expect([...seen].sort()).toEqual([0, 2, 3]);
    s = run(s, ended(0.5));
    expect(s.playing).toBe(false);
    expect(s.passesFinished).toBe(1);
  });

  it('starts a new pass on a different track with playlist loop', () => {
    let s = loaded(tracks(3), { shuffle: true, loopMode: LOOP_PLAYLIST });
    s = run(s, ended(0), ended(0));
    const last = s.index;
    s = run(s, ended(0));
    expect(s.index).not.toBe(last);
    expect(s).toMatchObject({ currentLoop: 1, history: [s.index], playing: true });
  });

  it('Previous walks back through the tracks played', () => {
    let s = loaded(tracks(5), { shuffle: true });
    s = run(s, next(0.9), next(0.1));
    expect(s.history).toEqual([0, 4, 1]);
    s = run(s, previous);
    expect(s).toMatchObject({ index: 4, history: [0, 4] });
    s = run(s, previous);
    expect(s).toMatchObject({ index: 0, history: [0] });
    expect(run(s, previous)).toBe(s);
  });

  it('turning shuffle on or off starts the pass from the current track', () => {
    const s = run(loaded(tracks(4)), ended(), { type: 'setShuffle', shuffle: true });
    expect(s).toMatchObject({ shuffle: true, history: [1] });
    expect(run(s, { type: 'setShuffle', shuffle: false })).toMatchObject({ shuffle: false, history: [1] });
  });

  it('track loop wins over shuffle', () => {
    const s = run(loaded(tracks(4), { shuffle: true, loopMode: LOOP_TRACK, loopCount: 1 }), ended(0.7));
    expect(s).toMatchObject({ index: 0, currentLoop: 1 });
  });
});

describe('select', () => {
  it('jumps to a playable track and plays it', () => {
    const s = run(loaded(tracks(3)), { type: 'pause' }, { type: 'select', index: 2 });
    expect(s).toMatchObject({ index: 2, playing: true, starts: 2 });
  });

  it('ignores locked, disabled and unknown tracks', () => {
    const s = loaded([track(1), track(2, { isLocked: true }), track(3, { disabled: true })]);
    expect(run(s, { type: 'select', index: 1 })).toBe(s);
    expect(run(s, { type: 'select', index: 2 })).toBe(s);
    expect(run(s, { type: 'select', index: 9 })).toBe(s);
  });
});

describe('updateTrack', () => {
  it('replaces a track without restarting it', () => {
    const s = loaded(tracks(2));
    const fresh = track(1, { audioURL: '/media/1?sig=new' });
    const u = run(s, { type: 'updateTrack', index: 0, track: fresh });
    expect(u.tracks[0]).toBe(fresh);
    expect(u).toMatchObject({ index: 0, starts: s.starts });
  });

  it('skips to the next playable track when the current one turns out locked', () => {
    const s = loaded([track(1), track(2, { disabled: true }), track(3)]);
    const u = run(s, { type: 'updateTrack', index: 0, track: track(1, { audioURL: null, isLocked: true }) });
    expect(u).toMatchObject({ index: 2, playing: true, starts: 2 });
  });

  it('wraps around to find a playable track', () => {
    const s = loaded(tracks(3), { startIndex: 2 });
    expect(run(s, { type: 'updateTrack', index: 2, track: track(3, { audioURL: null }) }).index).toBe(0);
  });

  it('stops when no playable track remains', () => {
    const s = loaded([track(1), track(2, { isLocked: true })]);
    const u = run(s, { type: 'updateTrack', index: 0, track: track(1, { isLocked: true, audioURL: null }) });
    expect(u).toMatchObject({ index: 0, playing: false });
  });

  it('ignores an index outside the queue', () => {
    const s = loaded(tracks(1));
    expect(run(s, { type: 'updateTrack', index: 4, track: track(9) })).toBe(s);
  });
});

describe('loop settings', () => {
  it('changing the mode resets the counter', () => {
    const s = run(loaded(tracks(2), { loopMode: LOOP_TRACK }), ended(), {
      type: 'setLoopMode',
      loopMode: LOOP_PLAYLIST,
    });
    expect(s).toMatchObject({ loopMode: LOOP_PLAYLIST, currentLoop: 0 });
  });

  it('an invalid count becomes unlimited', () => {
    const s = loaded(tracks(1));
    expect(run(s, { type: 'setLoopCount', loopCount: 4 }).loopCount).toBe(4);
    expect(run(s, { type: 'setLoopCount', loopCount: 0 }).loopCount).toBeNull();
    expect(run(s, { type: 'setLoopCount', loopCount: 1_000_001 }).loopCount).toBeNull();
    expect(run(s, { type: 'setLoopCount', loopCount: null }).loopCount).toBeNull();
  });

  it('lowering the count below the repeats done moves on at the next end', () => {
    let s = run(loaded(tracks(2), { loopMode: LOOP_TRACK, loopCount: 5 }), ended(), ended(), ended());
    s = run(s, { type: 'setLoopCount', loopCount: 2 }, ended());
    expect(s.index).toBe(1);
  });
});

describe('clear and an empty queue', () => {
  it('clear forgets the queue and the plan', () => {
    const s = run(
      loaded(tracks(2)),
      { type: 'load', tracks: tracks(2), startIndex: 0, plan: { id: 1, dayIndex: 0, dayCount: 2 } },
      { type: 'clear' },
    );
    expect(s).toMatchObject({ tracks: [], index: -1, playing: false, plan: null, history: [] });
  });

  it('ended, next and previous do nothing without a track', () => {
    const s = initialQueueState<Track>();
    expect(run(s, ended())).toBe(s);
    expect(run(s, next())).toBe(s);
    expect(run(s, previous)).toBe(s);
    expect(canGoNext(s)).toBe(false);
    expect(canGoPrevious(s)).toBe(false);
  });
});

describe('training-plan day completion', () => {
  const plan = { id: 3, dayIndex: 0, dayCount: 3 };

  it('finishing the last track of a day counts a finished pass', () => {
    const s = run(
      initialQueueState<Track>(),
      { type: 'load', tracks: tracks(2), startIndex: 0, plan },
      ended(),
    );
    expect(s.passesFinished).toBe(0);
    expect(run(s, ended()).passesFinished).toBe(1);
  });

  it('skipping to the end does not finish the day', () => {
    const s = run(
      initialQueueState<Track>(),
      { type: 'load', tracks: tracks(2), startIndex: 0, plan },
      next(),
      next(),
    );
    expect(s.passesFinished).toBe(0);
  });

  it.each([
    // position, day index, day count → new position
    [1, 0, 3, 2],
    [2, 1, 3, 3],
    [3, 2, 3, 4],
    [4, 2, 3, 4],
    [3, 0, 3, 3],
    [1, 2, 3, 1],
  ])('position %i after day %i of %i is %i', (position, dayIndex, dayCount, expected) => {
    expect(planPositionAfterDay(position, dayIndex, dayCount)).toBe(expected);
  });
});
