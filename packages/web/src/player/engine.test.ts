import type { EndSessionRequest } from '@mesmer/shared/api/listening';
import { vibrationLevel } from '@mesmer/shared/domain/haptic-cues';
import { MAX_VIBRATION_RANGE } from '@mesmer/shared/domain/haptics-settings';
import { LOOP_PLAYLIST, LOOP_TRACK } from '@mesmer/shared/domain/player-queue';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { audioFile, selfUser } from '../test/testing.tsx';
import { createPlayerEngine, type PlayerEngineDeps } from './engine.ts';
import { FakeMediaElement } from './fake-media-element.ts';
import { PRELOAD_AHEAD_SECONDS } from './gapless.ts';
import type { SessionCalls } from './listening-session.ts';
import { createPlayerStore } from './store.ts';
import { REFRESH_RETRY_MS } from './track-refresh.ts';
import type { PlayerServices, PlayerTrack } from './types.ts';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A player over a fake element, fake session calls and a fake clock; the store reads localStorage. */
function setup(services: Partial<PlayerServices> = {}, extra: Partial<PlayerEngineDeps> = {}) {
  // The current track's element, and the spare one the next track preloads into.
  const elements = [new FakeMediaElement(), new FakeMediaElement()];
  const [media, spare] = elements;
  media.id = 'first';
  spare.id = 'second';
  let created = 0;
  const store = createPlayerStore();
  let tokens = 0;
  const ended: EndSessionRequest[] = [];
  const sources: (string | undefined)[] = [];
  const sessions: SessionCalls = {
    start: async (source) => {
      sources.push(source);
      return { token: `tok-${++tokens}` };
    },
    end: async (body) => {
      ended.push(body);
      return { token: body.sessionToken, points: 1, totalPoints: 10, streak: 2 };
    },
    endOnUnload: (body) => ended.push(body),
  };
  const clock = { time: 1_000_000 };
  const notify = vi.fn();
  const attached: PlayerServices = {
    currentUser: () => null,
    pointsEarned: vi.fn(),
    fetchFile: vi.fn(async () => null),
    planPosition: vi.fn(async () => 1),
    savePlanPosition: vi.fn(async () => undefined),
    ...services,
  };
  const engine = createPlayerEngine({
    store,
    createElement: () => elements[created++],
    sessions,
    now: () => clock.time,
    random: () => 0,
    notify,
    library: { loudness: async () => ({ loudness: null, peak: null }), awakener: async () => null },
    ...extra,
  });
  onTestFinished(engine.attach(attached));
  return {
    media,
    spare,
    /** How many audio elements the engine made. */
    created: () => created,
    store,
    ended,
    /** The source each session start said, in order. */
    sources,
    clock,
    notify,
    services: attached,
    controls: engine.controls,
  };
}

const track = (name: string, overrides: Partial<PlayerTrack> = {}) =>
  audioFile({ name, audioURL: `/media/audio/${name}.wav?sig=${name}`, ...overrides });
const urlOf = (name: string, token: string) => `/media/audio/${name}.wav?sig=${name}&session=${token}`;

describe('player engine: what insights learn of a session', () => {
  it("starts each session with the queue's source and ends it saying whether a toy is connected", async () => {
    const p = setup();
    const [a, b] = [track('a'), track('b')];
    p.controls.play({ files: [a], startIndex: 0, source: 'community-playlist' });
    await flush();
    p.controls.setHapticDevice({ vibrate: vi.fn(), stop: vi.fn() });
    p.media.metadata(60);
    p.media.playTo(2);
    p.controls.play({ files: [b], startIndex: 0 });
    await flush();
    expect(p.sources).toEqual(['community-playlist', undefined]);
    expect(p.ended).toEqual([expect.objectContaining({ sessionToken: 'tok-1', toyConnected: true })]);
  });

  it("says 'training-plan' for a plan's queue unless told otherwise", async () => {
    const p = setup();
    const plan = { id: 1, uuid: 'p', name: 'Plan', dayIndex: 0, dayCount: 2 };
    p.controls.play({ files: [track('a')], startIndex: 0, plan });
    await flush();
    expect(p.sources).toEqual(['training-plan']);
  });
});

describe('player engine: end of track', () => {
  it('ends the session with what was heard and loads the next track under a new one', async () => {
    const p = setup();
    const [a, b] = [track('a'), track('b')];
    p.controls.play({ files: [a, b], startIndex: 0 });
    await flush();
    expect(p.media.src).toBe(urlOf('a', 'tok-1'));
    expect(p.media.paused).toBe(false);

    p.media.metadata(60);
    p.media.playTo(1);
    p.media.playTo(3);
    p.media.finish();
    await flush();
    // Heard from the start of play to the last report; the jump to the end (a seek) is not listening.
    expect(p.ended).toEqual([
      {
        sessionToken: 'tok-1',
        fileId: a.id,
        timezone: expect.any(String),
        listenedMs: 3000,
        toyConnected: false,
      },
    ]);
    expect(p.services.pointsEarned).toHaveBeenCalledWith({
      token: 'tok-1',
      points: 1,
      totalPoints: 10,
      streak: 2,
    });
    expect(p.store.getState().queue).toMatchObject({ index: 1, playing: true });
    expect(p.media.src).toBe(urlOf('b', 'tok-2'));
    expect(p.media.paused).toBe(false);
  });

  it('stays paused when the listener pauses while the session is still being opened', async () => {
    let openSession = (_token: { token: string }) => {};
    const p = setup(
      {},
      {
        sessions: {
          start: () => new Promise((resolve) => (openSession = resolve)),
          end: async (body) => ({ token: body.sessionToken, points: 0, totalPoints: 0, streak: 0 }),
          endOnUnload: () => {},
        },
      },
    );
    p.controls.play({ files: [track('a')], startIndex: 0 });
    p.controls.pause();
    openSession({ token: 'tok-late' });
    await flush();
    expect(p.media.src).toBe(urlOf('a', 'tok-late'));
    expect(p.media.paused).toBe(true);
    expect(p.store.getState().queue.playing).toBe(false);
  });

  it('stops after the last track, and Play then loads it again under a new session', async () => {
    const p = setup();
    const b = track('b');
    p.controls.play({ files: [b], startIndex: 0 });
    await flush();
    p.media.metadata(60);
    p.media.finish();
    await flush();
    expect(p.ended.map((e) => e.sessionToken)).toEqual(['tok-1']);
    expect(p.store.getState().queue).toMatchObject({ index: 0, playing: false });
    expect(p.media.sources).toEqual([urlOf('b', 'tok-1')]);

    p.controls.resume();
    await flush();
    expect(p.media.sources).toEqual([urlOf('b', 'tok-1'), urlOf('b', 'tok-2')]);
    expect(p.store.getState().queue.playing).toBe(true);
  });
});

describe('player engine: loops', () => {
  it('repeats the playlist loop count times, then stops', async () => {
    const p = setup();
    const [a, b] = [track('a'), track('b')];
    p.controls.setLoopMode(LOOP_PLAYLIST);
    p.controls.setLoopCount(1);
    p.controls.play({ files: [a, b], startIndex: 0 });
    for (let i = 0; i < 4; i++) {
      await flush();
      p.media.metadata(60);
      p.media.finish();
    }
    await flush();
    expect(p.media.sources).toEqual([
      urlOf('a', 'tok-1'),
      urlOf('b', 'tok-2'),
      urlOf('a', 'tok-3'),
      urlOf('b', 'tok-4'),
    ]);
    expect(p.ended.map((e) => e.sessionToken)).toEqual(['tok-1', 'tok-2', 'tok-3', 'tok-4']);
    expect(p.store.getState().queue).toMatchObject({ index: 1, playing: false, currentLoop: 0 });
  });

  it('plays a looped track count + 1 times, each under its own session, then moves on', async () => {
    const p = setup();
    const [a, b] = [track('a'), track('b')];
    p.controls.setLoopMode(LOOP_TRACK);
    p.controls.setLoopCount(2);
    p.controls.play({ files: [a, b], startIndex: 0 });
    for (let i = 0; i < 3; i++) {
      await flush();
      p.media.metadata(60);
      p.media.finish();
    }
    await flush();
    expect(p.media.sources).toEqual([
      urlOf('a', 'tok-1'),
      urlOf('a', 'tok-2'),
      urlOf('a', 'tok-3'),
      urlOf('b', 'tok-4'),
    ]);
    expect(p.ended.map((e) => [e.sessionToken, e.fileId])).toEqual([
      ['tok-1', a.id],
      ['tok-2', a.id],
      ['tok-3', a.id],
    ]);
    expect(p.store.getState().queue).toMatchObject({ index: 1, playing: true });
  });
});

describe('player engine: locked tracks', () => {
  it('skips a locked track at the end of the one before', async () => {
    const p = setup();
    const [a, locked, c] = [track('a'), track('locked', { isLocked: true, audioURL: null }), track('c')];
    p.controls.play({ files: [a, locked, c], startIndex: 0 });
    await flush();
    p.media.metadata(60);
    p.media.finish();
    await flush();
    expect(p.media.sources).toEqual([urlOf('a', 'tok-1'), urlOf('c', 'tok-2')]);
    expect(p.store.getState().queue.index).toBe(2);
  });

  it('stops when the track turns out locked and no playable one remains', async () => {
    const p = setup({ fetchFile: vi.fn(async () => null) });
    const [a, locked] = [track('a'), track('locked', { isLocked: true, audioURL: null })];
    p.controls.play({ files: [a, locked], startIndex: 0 });
    await flush();
    p.media.fail();
    await flush();
    expect(p.store.getState().queue).toMatchObject({ index: 0, playing: false });
    expect(p.store.getState().queue.tracks[0]).toMatchObject({ isLocked: true, audioURL: null });
    expect(p.media.paused).toBe(true);
    expect(p.media.sources).toEqual([urlOf('a', 'tok-1')]);
  });

  it('tells the listener when every track is locked or disabled', () => {
    const p = setup();
    p.controls.play({
      files: [track('locked', { isLocked: true, audioURL: null }), { ...track('off'), disabled: true }],
      startIndex: 0,
    });
    expect(p.notify).toHaveBeenCalledWith(
      'info',
      'Nothing to play',
      'Every track here is locked or disabled.',
    );
    expect(p.store.getState().queue.index).toBe(-1);
    expect(p.media.sources).toEqual([]);
  });
});

describe('player engine: media error', () => {
  it('fetches a fresh URL once and resumes at the same position under the same session', async () => {
    const a = track('a');
    const fetchFile = vi.fn(async () => ({ ...a, audioURL: '/media/audio/a.wav?sig=fresh' }));
    const p = setup({ fetchFile });
    p.controls.play({ files: [a, track('b')], startIndex: 0 });
    await flush();
    p.media.metadata(600);
    p.media.playTo(42);
    p.media.fail();
    await flush();
    expect(fetchFile).toHaveBeenCalledExactlyOnceWith(a.uuid);
    expect(p.media.src).toBe('/media/audio/a.wav?sig=fresh&session=tok-1');
    expect(p.media.paused).toBe(false);
    p.media.metadata(600);
    expect(p.media.currentTime).toBe(42);
    expect(p.ended).toEqual([]);
    expect(p.store.getState().queue.index).toBe(0);
  });

  it('gives the track up on a second error within 10 s and plays the next one', async () => {
    const a = track('a');
    const fetchFile = vi.fn(async () => ({ ...a, audioURL: '/media/audio/a.wav?sig=fresh' }));
    const p = setup({ fetchFile });
    p.controls.play({ files: [a, track('b')], startIndex: 0 });
    await flush();
    p.media.fail();
    await flush();
    p.clock.time += REFRESH_RETRY_MS - 1;
    p.media.fail();
    await flush();
    expect(fetchFile).toHaveBeenCalledTimes(1);
    expect(p.notify).toHaveBeenCalledWith('error', 'This track could not be played.');
    expect(p.store.getState().queue.tracks[0].audioURL).toBeNull();
    expect(p.media.src).toBe(urlOf('b', 'tok-2'));
    expect(p.ended.map((e) => [e.sessionToken, e.fileId])).toEqual([['tok-1', a.id]]);
  });
});

describe('player engine: restore after reload', () => {
  it('loads the saved track paused at the saved position with a fresh URL', async () => {
    const [a, b] = [track('a'), track('b')];
    const before = setup();
    before.controls.play({ files: [a, b], startIndex: 1, playlist: { id: 3, uuid: 'p-3', name: 'Evening' } });
    await flush();
    before.media.metadata(300);
    before.media.playTo(73);
    before.media.pause();

    const fetchFile = vi.fn(async () => ({ ...b, audioURL: '/media/audio/b.wav?sig=fresh' }));
    const after = setup({ fetchFile });
    await flush();
    expect(fetchFile).toHaveBeenCalledExactlyOnceWith(b.uuid);
    expect(after.store.getState()).toMatchObject({
      queue: { index: 1, playing: false },
      playlist: { id: 3, uuid: 'p-3', name: 'Evening' },
      position: 73,
      restoreAt: null,
    });
    expect(after.media.src).toBe('/media/audio/b.wav?sig=fresh&session=tok-1');
    expect(after.media.paused).toBe(true);
    after.media.metadata(300);
    expect(after.media.currentTime).toBe(73);
  });

  it('loads the saved URL when the file cannot be fetched', async () => {
    const b = track('b');
    const before = setup();
    before.controls.play({ files: [b], startIndex: 0 });
    await flush();
    before.media.metadata(300);
    before.media.playTo(20);
    before.media.pause();

    const after = setup({ fetchFile: vi.fn(async () => Promise.reject(new Error('offline'))) });
    await flush();
    expect(after.media.src).toBe(urlOf('b', 'tok-1'));
    after.media.metadata(300);
    expect(after.media.currentTime).toBe(20);
    expect(after.media.paused).toBe(true);
  });
});

describe('player engine: training-plan progress', () => {
  const plan = { id: 4, uuid: 'plan-4', name: 'Deepening', dayIndex: 1, dayCount: 3 };

  it('saves the next day for a signed-in listener when the day ends by itself', async () => {
    const p = setup({
      currentUser: () => selfUser(),
      planPosition: vi.fn(async () => 2),
    });
    p.controls.play({ files: [track('a')], startIndex: 0, plan });
    await flush();
    p.media.finish();
    await flush();
    expect(p.services.planPosition).toHaveBeenCalledWith(expect.objectContaining({ id: 4, uuid: 'plan-4' }));
    expect(p.services.savePlanPosition).toHaveBeenCalledWith(expect.objectContaining({ id: 4 }), 3);
    expect(p.store.getState().planPositions).toEqual({ 4: 3 });
    expect(p.notify).toHaveBeenCalledWith('success', 'Day complete!', 'The next day is unlocked.');
  });

  it("keeps a visitor's progress in the player, and skipping to the end does not count", async () => {
    const p = setup();
    p.controls.play({ files: [track('a')], startIndex: 0, plan: { ...plan, dayIndex: 2, position: 3 } });
    await flush();
    p.controls.next();
    await flush();
    expect(p.store.getState().planPositions).toEqual({});
    p.media.finish();
    await flush();
    expect(p.services.savePlanPosition).not.toHaveBeenCalled();
    expect(p.store.getState().planPositions).toEqual({ 4: 4 });
    expect(p.notify).toHaveBeenCalledWith('success', 'Day complete!', 'You finished Deepening.');
  });
});

/** Interval timers (fades) under a fake clock; the engine's `now` moves with them. */
function fakeIntervals(clock: { time: number }) {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  return (ms: number) => {
    for (let t = 0; t < ms; t += 100) {
      clock.time += 100;
      vi.advanceTimersByTime(100);
    }
  };
}

describe('player engine: sleep timer', () => {
  it('fades out over the last 10 s of the chosen minutes, then pauses at full volume again', async () => {
    const p = setup();
    const advance = fakeIntervals(p.clock);
    p.controls.play({ files: [track('a')], startIndex: 0 });
    await flush();
    p.media.metadata(3600);
    p.controls.setSleepTimer(15);
    expect(p.store.getState().sleepTimer).toEqual({
      kind: 'minutes',
      minutes: 15,
      endsAt: p.clock.time + 900_000,
    });

    advance(900_000 - 10_000);
    expect(p.media.volume).toBe(1);
    advance(5000);
    expect(p.media.volume).toBeCloseTo(0.5, 5);
    expect(p.media.paused).toBe(false);
    advance(4000);
    expect(p.media.volume).toBeCloseTo(0.1, 5);
    advance(1000);
    expect(p.media.paused).toBe(true);
    expect(p.store.getState()).toMatchObject({ sleepTimer: null, queue: { playing: false } });
    expect(p.media.volume).toBe(1);
  });

  it('at the end of the track fades its last 10 s and stops with the next track loaded paused', async () => {
    const p = setup();
    fakeIntervals(p.clock);
    p.controls.play({ files: [track('a'), track('b')], startIndex: 0 });
    await flush();
    p.media.metadata(60);
    p.controls.setSleepTimer('track');
    p.media.playTo(45);
    expect(p.media.volume).toBe(1);
    p.media.playTo(55);
    expect(p.media.volume).toBeCloseTo(0.5, 5);
    p.media.finish();
    await flush();
    expect(p.store.getState()).toMatchObject({ sleepTimer: null, queue: { index: 1, playing: false } });
    expect(p.media.src).toBe(urlOf('b', 'tok-2'));
    expect(p.media.paused).toBe(true);
    expect(p.media.volume).toBe(1);
  });

  it('cancelling the timer mid-fade restores the volume and keeps playing', async () => {
    const p = setup();
    const advance = fakeIntervals(p.clock);
    p.controls.setVolume(80);
    p.controls.play({ files: [track('a')], startIndex: 0 });
    await flush();
    p.controls.setSleepTimer(30);
    advance(1_800_000 - 2000);
    expect(p.media.volume).toBeCloseTo(0.8 * 0.2, 5);
    p.controls.setSleepTimer(null);
    expect(p.media.volume).toBeCloseTo(0.8, 5);
    advance(5000);
    expect(p.media.paused).toBe(false);
    expect(p.store.getState().sleepTimer).toBeNull();
  });
});

describe('player engine: loudness normalisation', () => {
  it("applies the track's gain on the element when there is no gain stage, and not when switched off", async () => {
    const loudness = vi.fn(async () => ({ loudness: -10, peak: 1 }));
    const p = setup({}, { library: { loudness, awakener: async () => null } });
    p.controls.play({ files: [track('a')], startIndex: 0 });
    await flush();
    expect(loudness).toHaveBeenCalledWith(p.store.getState().queue.tracks[0].id);
    expect(p.store.getState().gainDb).toBe(-6);
    expect(p.media.volume).toBeCloseTo(0.501, 3);

    p.controls.setNormalise(false);
    expect(p.media.volume).toBe(1);
    expect(p.store.getState().gainDb).toBeNull();
    expect(JSON.parse(localStorage.getItem('player.preferences') ?? '{}')).toMatchObject({
      normalise: false,
    });
  });

  it('boosts a quiet track on the gain stage, within its peak, and leaves the volume to the element', async () => {
    const gains: number[] = [];
    const resume = vi.fn();
    const p = setup(
      {},
      {
        library: { loudness: async () => ({ loudness: -30, peak: 0.6 }), awakener: async () => null },
        createGainStage: () => ({ setGain: (g) => gains.push(g), resume }),
      },
    );
    p.controls.setVolume(50);
    p.controls.play({ files: [track('a')], startIndex: 0 });
    await flush();
    const gain = gains.at(-1) ?? 0;
    // -30 LUFS wants +14 dB; the peak at 0.6 allows 0.891 / 0.6, about +3.4 dB.
    expect(gain).toBeCloseTo(10 ** (-1 / 20) / 0.6, 5);
    expect(gain * 0.6).toBeLessThanOrEqual(1);
    expect(p.media.volume).toBe(0.5);
    expect(resume).toHaveBeenCalled();
  });
});

describe('player engine: wake-up', () => {
  it('stops the toy at once, fades the track out over 3 s, then plays the awakener once', async () => {
    const awakener = track('wide-awake', { name: 'Wide Awake' });
    const p = setup(
      {},
      { library: { loudness: async () => ({ loudness: null, peak: null }), awakener: async () => awakener } },
    );
    const advance = fakeIntervals(p.clock);
    const device = { vibrate: vi.fn(), stop: vi.fn() };
    p.controls.setHapticDevice(device);
    device.stop.mockClear();
    p.controls.play({
      files: [track('a'), track('b')],
      startIndex: 0,
      playlist: { id: 1, uuid: 'p', name: 'Deep' },
    });
    await flush();
    p.media.metadata(600);
    p.media.playTo(100);

    p.controls.wakeUp();
    expect(device.stop).toHaveBeenCalledTimes(1);
    expect(p.store.getState().waking).toBe(true);
    advance(1500);
    expect(p.media.volume).toBeCloseTo(0.5, 5);
    expect(p.media.paused).toBe(false);
    advance(1500);
    await flush();
    expect(p.ended.map((e) => e.sessionToken)).toEqual(['tok-1']);
    expect(p.media.src).toBe(urlOf('wide-awake', 'tok-2'));
    expect(p.media.paused).toBe(false);
    expect(p.media.volume).toBe(1);
    expect(p.store.getState()).toMatchObject({
      waking: false,
      playlist: null,
      queue: { index: 0, playing: true },
    });

    p.media.metadata(12);
    p.media.finish();
    await flush();
    expect(p.store.getState().queue.playing).toBe(false);
    expect(p.media.paused).toBe(true);
  });

  it('says so when the library has no awakener, and stays paused', async () => {
    const p = setup();
    const advance = fakeIntervals(p.clock);
    p.controls.play({ files: [track('a')], startIndex: 0 });
    await flush();
    p.controls.wakeUp();
    advance(3000);
    await flush();
    expect(p.notify).toHaveBeenCalledWith('info', 'Wake up gently…', expect.any(String));
    expect(p.media.paused).toBe(true);
    expect(p.media.volume).toBe(1);
  });
});

describe('player engine: mute', () => {
  it('mutes and goes back to the volume before', async () => {
    const p = setup();
    p.controls.setVolume(70);
    p.controls.toggleMute();
    expect(p.store.getState().volume).toBe(0);
    // No audio element is made before something plays; the first one takes the volume set.
    expect(p.created()).toBe(0);
    p.controls.play({ files: [track('a')], startIndex: 0 });
    await flush();
    expect(p.created()).toBe(2);
    expect(p.media.volume).toBe(0);
    p.controls.toggleMute();
    expect(p.store.getState().volume).toBe(70);
    expect(p.media.volume).toBeCloseTo(0.7, 5);
  });
});

/**
 * Plays the current element of a `seconds`-long track the way a browser reports it, to its end,
 * with time for the next track's preload (its session start) after the first report.
 */
async function playThrough(media: FakeMediaElement, seconds: number) {
  media.metadata(seconds);
  media.playTo(0.25);
  await flush();
  for (let t = 0.5; t < seconds; t += 0.25) media.playTo(t);
  media.finish();
  await flush();
}

describe('player engine: gapless playback', () => {
  it('preloads the next track under its own session before the end and switches to it without a new load', async () => {
    const p = setup();
    const [a, b] = [track('a'), track('b')];
    p.controls.play({ files: [a, b], startIndex: 0 });
    await flush();
    p.media.metadata(60);
    p.media.playTo(1);
    p.media.playTo(60 - PRELOAD_AHEAD_SECONDS - 1);
    await flush();
    expect(p.spare.sources).toEqual([]);

    p.media.playTo(60 - PRELOAD_AHEAD_SECONDS + 1);
    await flush();
    expect(p.spare.sources).toEqual([urlOf('b', 'tok-2')]);
    expect(p.spare.paused).toBe(true);
    // The spare element's own events (its metadata while preloading) do not reach the bar.
    p.spare.metadata(20);
    expect(p.store.getState()).toMatchObject({ queue: { index: 0 }, duration: 60 });
    expect(p.ended).toEqual([]);

    p.media.playTo(34);
    p.media.finish();
    await flush();
    expect(p.store.getState()).toMatchObject({
      queue: { index: 1, playing: true },
      position: 0,
      duration: 20,
    });
    expect(p.spare.paused).toBe(false);
    expect(p.spare.sources).toEqual([urlOf('b', 'tok-2')]);
    expect(p.media.sources).toEqual([urlOf('a', 'tok-1')]);
    // The current track's element is the one e2e journeys and the page read as #mesmer-audio.
    expect([p.spare.id, p.media.id]).toEqual(['first', 'second']);
    expect(p.ended.map((e) => [e.sessionToken, e.fileId])).toEqual([['tok-1', a.id]]);

    // What plays now is counted under the preloaded session, and ends it.
    p.spare.playTo(2);
    p.spare.playTo(4);
    expect(p.store.getState().position).toBe(4);
    p.spare.finish();
    await flush();
    expect(p.ended.at(-1)).toEqual({
      sessionToken: 'tok-2',
      fileId: b.id,
      timezone: expect.any(String),
      listenedMs: 4000,
      toyConnected: false,
    });
    expect(p.store.getState().queue).toMatchObject({ index: 1, playing: false });
  });

  it('plays short tracks through on alternating elements, each heard to its end', async () => {
    const p = setup();
    const [a, b, c] = [track('a'), track('b'), track('c')];
    p.controls.play({ files: [a, b, c], startIndex: 0 });
    await flush();
    await playThrough(p.media, 12);
    await playThrough(p.spare, 12);
    await playThrough(p.media, 12);
    expect(p.media.sources).toEqual([urlOf('a', 'tok-1'), urlOf('c', 'tok-3')]);
    expect(p.spare.sources).toEqual([urlOf('b', 'tok-2')]);
    expect(p.ended.map((e) => [e.sessionToken, e.fileId, e.listenedMs])).toEqual([
      ['tok-1', a.id, 12_000],
      ['tok-2', b.id, 12_000],
      ['tok-3', c.id, 12_000],
    ]);
    expect(p.store.getState().queue).toMatchObject({ index: 2, playing: false });
  });

  it('gives each element the gain of its own track', async () => {
    const [a, b] = [track('a'), track('b')];
    const stageGains = new Map<string, number>();
    const p = setup(
      {},
      {
        library: {
          loudness: async (id) => (id === a.id ? { loudness: -10, peak: 1 } : { loudness: -30, peak: 0.6 }),
          awakener: async () => null,
        },
        createGainStage: (element) => ({
          setGain: (g) => stageGains.set(element.src, g),
          resume: () => undefined,
        }),
      },
    );
    p.controls.play({ files: [a, b], startIndex: 0 });
    await flush();
    p.media.metadata(12);
    p.media.playTo(1);
    await flush();
    expect(stageGains.get(urlOf('a', 'tok-1'))).toBeCloseTo(10 ** (-6 / 20), 5);
    expect(stageGains.get(urlOf('b', 'tok-2'))).toBeCloseTo(10 ** (-1 / 20) / 0.6, 5);
    expect(p.store.getState().gainDb).toBe(-6);
    p.media.finish();
    await flush();
    // -30 LUFS wants +14 dB; the peak at 0.6 allows about +3.4 dB.
    expect(p.store.getState().gainDb).toBe(3.4);

    p.controls.setNormalise(false);
    expect(stageGains.get(urlOf('b', 'tok-2'))).toBe(1);
  });

  it('drops the preloaded track when a skip changes what comes next; its session credits nothing', async () => {
    const p = setup();
    const [a, b, c] = [track('a'), track('b'), track('c')];
    p.controls.play({ files: [a, b, c], startIndex: 0 });
    await flush();
    p.media.metadata(20);
    p.media.playTo(1);
    await flush();
    expect(p.spare.sources).toEqual([urlOf('b', 'tok-2')]);

    p.controls.next();
    await flush();
    expect(p.spare.src).toBe('');
    expect(p.media.src).toBe(urlOf('b', 'tok-3'));
    expect(p.ended.map((e) => [e.sessionToken, e.fileId, e.listenedMs]).sort()).toEqual([
      ['tok-1', a.id, 1000],
      ['tok-2', b.id, 0],
    ]);
    expect(p.services.pointsEarned).toHaveBeenCalledTimes(1);
  });

  it('follows a loop-mode change with a new preload, and keeps the preload across pause and play', async () => {
    const p = setup();
    const [a, b] = [track('a'), track('b')];
    p.controls.play({ files: [a, b], startIndex: 0 });
    await flush();
    p.media.metadata(20);
    p.media.playTo(1);
    await flush();
    p.controls.pause();
    p.controls.resume();
    await flush();
    expect(p.spare.sources).toEqual([urlOf('b', 'tok-2')]);

    p.controls.setLoopMode(LOOP_TRACK);
    await flush();
    expect(p.spare.src).toBe('');
    expect(p.ended.map((e) => [e.sessionToken, e.listenedMs])).toEqual([['tok-2', 0]]);
    p.media.playTo(2);
    await flush();
    expect(p.spare.sources).toEqual([urlOf('b', 'tok-2'), urlOf('a', 'tok-3')]);
    p.media.finish();
    await flush();
    expect(p.spare.paused).toBe(false);
    expect(p.media.sources).toEqual([urlOf('a', 'tok-1')]);
    expect(p.store.getState().queue).toMatchObject({ index: 0, currentLoop: 1, playing: true });
  });

  it('skips a locked track, counts track loops and finishes a plan day across element switches', async () => {
    const plan = { id: 4, uuid: 'plan-4', name: 'Deepening', dayIndex: 0, dayCount: 3, position: 1 };
    const p = setup();
    const [a, locked, c] = [track('a'), track('locked', { isLocked: true, audioURL: null }), track('c')];
    p.controls.setLoopMode(LOOP_TRACK);
    p.controls.setLoopCount(1);
    p.controls.play({ files: [a, locked, c], startIndex: 0, plan });
    await flush();
    for (const element of [p.media, p.spare, p.media, p.spare]) await playThrough(element, 12);
    expect(p.media.sources).toEqual([urlOf('a', 'tok-1'), urlOf('c', 'tok-3')]);
    expect(p.spare.sources).toEqual([urlOf('a', 'tok-2'), urlOf('c', 'tok-4')]);
    expect(p.ended.map((e) => e.sessionToken)).toEqual(['tok-1', 'tok-2', 'tok-3', 'tok-4']);
    expect(p.store.getState().queue).toMatchObject({ index: 2, playing: false });
    expect(p.store.getState().planPositions).toEqual({ 4: 2 });
  });

  it('does not preload while the sleep timer stops at the end of this track', async () => {
    const p = setup();
    p.controls.play({ files: [track('a'), track('b')], startIndex: 0 });
    await flush();
    p.controls.setSleepTimer('track');
    p.media.metadata(12);
    p.media.playTo(1);
    await flush();
    expect(p.spare.sources).toEqual([]);
    p.controls.setSleepTimer(null);
    p.media.playTo(2);
    await flush();
    expect(p.spare.sources).toEqual([urlOf('b', 'tok-2')]);
  });

  it("drives the toy from the next track's cues and element once it takes over", async () => {
    const fetchHapticCues = vi.fn(async (url: string) =>
      url.includes('b-cues') ? [{ time: 1000, stopTime: 3000, strength: 0.5 }] : [],
    );
    const p = setup({}, { fetchHapticCues });
    const device = { vibrate: vi.fn(), stop: vi.fn() };
    p.controls.setHapticDevice(device);
    const a = track('a', { hapticsURL: '/media/haptics/a-cues.json' });
    const b = track('b', { hapticsURL: '/media/haptics/b-cues.json' });
    p.controls.play({ files: [a, b], startIndex: 0 });
    await flush();
    await playThrough(p.media, 12);
    expect(fetchHapticCues).toHaveBeenLastCalledWith('/media/haptics/b-cues.json');
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    p.controls.pause();
    p.controls.resume();
    p.spare.playTo(2);
    vi.advanceTimersByTime(50);
    expect(device.vibrate).toHaveBeenCalledExactlyOnceWith(vibrationLevel(0.5, MAX_VIBRATION_RANGE.default));
  });
});
