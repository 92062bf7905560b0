import { describe, expect, it } from 'vitest';
import {
  clampSpeed,
  clampVolume,
  DEFAULT_PREFERENCES,
  loadPreferences,
  loadQueue,
  PREFERENCES_KEY,
  QUEUE_KEY,
  savePreferences,
  saveQueue,
} from './persistence.ts';

describe('player preferences', () => {
  it('defaults to volume 100, speed 100 %, loop off with an unlimited count, no shuffle, normalised', () => {
    expect(loadPreferences()).toEqual({
      volume: 100,
      speed: 100,
      loopMode: 1,
      loopCount: null,
      shuffle: false,
      normalise: true,
    });
  });

  it('round-trips through localStorage', () => {
    const prefs = {
      volume: 40,
      speed: 150,
      loopMode: 3 as const,
      loopCount: 5,
      shuffle: true,
      normalise: false,
    };
    savePreferences(prefs);
    expect(loadPreferences()).toEqual(prefs);
  });

  it('repairs stored values one by one', () => {
    localStorage.setItem(
      PREFERENCES_KEY,
      JSON.stringify({ volume: 250, speed: 155, loopMode: 7, loopCount: 0, shuffle: 'yes', normalise: 0 }),
    );
    expect(loadPreferences()).toEqual({
      volume: 100,
      speed: 160,
      loopMode: 1,
      loopCount: null,
      shuffle: false,
      normalise: true,
    });
  });

  it('ignores unreadable storage', () => {
    localStorage.setItem(PREFERENCES_KEY, '{not json');
    expect(loadPreferences()).toEqual(DEFAULT_PREFERENCES);
  });

  it.each([
    [5, 10],
    [14, 10],
    [15, 20],
    [100, 100],
    [201, 200],
    [Number.NaN, 100],
  ])('speed %f becomes %i', (input, speed) => {
    expect(clampSpeed(input)).toBe(speed);
  });

  it.each([
    [-5, 0],
    [40.4, 40],
    [101, 100],
    [Number.NaN, 100],
  ])('volume %f becomes %i', (input, volume) => {
    expect(clampVolume(input)).toBe(volume);
  });
});

describe('saved queue', () => {
  const track = { id: 1, uuid: 'a', name: 'A' };
  const snapshot = {
    tracks: [track, { ...track, id: 2, uuid: 'b' }],
    index: 1,
    position: 17.5,
    currentLoop: 2,
    history: [0, 1],
    playlist: { id: 3, uuid: 'p', name: 'P' },
    plan: null,
  };

  it('round-trips through localStorage and is removed with null', () => {
    saveQueue(snapshot as never);
    expect(loadQueue()).toEqual(snapshot);
    saveQueue(null);
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
    expect(loadQueue()).toBeNull();
  });

  it('is dropped when it does not look like a queue', () => {
    for (const bad of [
      { tracks: [], index: 0 },
      { ...snapshot, index: 5 },
      { ...snapshot, tracks: [{ id: 'x' }] },
      [],
    ]) {
      localStorage.setItem(QUEUE_KEY, JSON.stringify(bad));
      expect(loadQueue()).toBeNull();
    }
  });

  it('starts at the beginning when the saved position is not a number', () => {
    localStorage.setItem(QUEUE_KEY, JSON.stringify({ ...snapshot, position: 'x' }));
    expect(loadQueue()?.position).toBe(0);
  });
});
