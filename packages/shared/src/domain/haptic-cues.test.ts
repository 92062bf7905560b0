import { describe, expect, it } from 'vitest';
import {
  type HapticCue,
  type HapticScheduleState,
  type HapticSettings,
  initialHapticState,
  parseHapticCues,
  resetHapticCursor,
  stepHaptics,
  stopHaptics,
  vibrationLevel,
} from './haptic-cues.ts';

describe('vibrationLevel', () => {
  it.each([
    // strength, max vibration, level
    [1, 100, 20],
    [0.5, 100, 10],
    [0.15, 100, 3],
    [0.01, 100, 1],
    [0.51, 100, 11],
    [1, 50, 10],
    [0.5, 50, 5],
    [0.35, 30, 3],
    [0.01, 1, 1],
    [1, 1, 1],
  ])('strength %f at max %i is %i', (strength, max, level) => {
    expect(vibrationLevel(strength, max)).toBe(level);
  });

  it('is 0 for no strength', () => {
    expect(vibrationLevel(0, 100)).toBe(0);
    expect(vibrationLevel(-0.5, 100)).toBe(0);
    expect(vibrationLevel(Number.NaN, 100)).toBe(0);
  });

  it('never goes above 20, even with out-of-range input', () => {
    expect(vibrationLevel(3, 100)).toBe(20);
    expect(vibrationLevel(1, 500)).toBe(20);
  });

  it('treats a max vibration below 1 as 1', () => {
    expect(vibrationLevel(1, 0)).toBe(1);
    expect(vibrationLevel(1, -20)).toBe(1);
  });
});

describe('parseHapticCues', () => {
  it('keeps well-formed cues, sorted by start', () => {
    const cues = parseHapticCues([
      { time: 5000, stopTime: 6000, strength: 0.5, extra: true },
      { time: 1000, stopTime: 2000, strength: 1 },
    ]);
    expect(cues).toEqual([
      { time: 1000, stopTime: 2000, strength: 1 },
      { time: 5000, stopTime: 6000, strength: 0.5 },
    ]);
  });

  it('drops malformed cues and answers [] for anything but a list', () => {
    expect(
      parseHapticCues([
        null,
        { time: 'a', stopTime: 2, strength: 1 },
        { time: 10, stopTime: 5, strength: 1 },
        { time: 1, stopTime: 2 },
      ]),
    ).toEqual([]);
    expect(parseHapticCues({ actions: [] })).toEqual([]);
    expect(parseHapticCues(null)).toEqual([]);
  });
});

const cues: HapticCue[] = [
  { time: 1000, stopTime: 2000, strength: 1 },
  { time: 3000, stopTime: 4000, strength: 0.5 },
  { time: 4000, stopTime: 5000, strength: 0.25 },
];
const full: HapticSettings = { offsetMs: 0, maxVibration: 100 };

/** Runs the poll over the given times and lists the commands sent. */
function poll(
  times: number[],
  settings = full,
  list = cues,
  start: HapticScheduleState = initialHapticState(),
) {
  let state = start;
  const sent: string[] = [];
  for (const t of times) {
    const step = stepHaptics(state, list, t, settings);
    state = step.state;
    if (step.command) sent.push(step.command.type === 'stop' ? `${t}:stop` : `${t}:${step.command.level}`);
  }
  return { state, sent };
}

describe('stepHaptics', () => {
  it('starts at the cue time and stops at its stop time', () => {
    expect(poll([0, 990, 1000, 1500, 1990, 2000, 2500]).sent).toEqual(['1000:20', '2000:stop']);
  });

  it('sends only changes, and goes straight from one cue into the next', () => {
    expect(poll([3000, 3500, 3999, 4000, 4500, 5000]).sent).toEqual(['3000:10', '4000:5', '5000:stop']);
  });

  it('fires early by a positive offset and late by a negative one', () => {
    expect(poll([700, 750, 1700, 1750], { offsetMs: 250, maxVibration: 100 }).sent).toEqual([
      '750:20',
      '1750:stop',
    ]);
    expect(poll([1000, 1249, 1250, 2250], { offsetMs: -250, maxVibration: 100 }).sent).toEqual([
      '1250:20',
      '2250:stop',
    ]);
  });

  it('scales by the max vibration', () => {
    expect(poll([1000], { offsetMs: 0, maxVibration: 50 }).sent).toEqual(['1000:10']);
  });

  it('skips a cue that started and ended between two polls', () => {
    const short: HapticCue[] = [{ time: 100, stopTime: 105, strength: 1 }];
    expect(poll([90, 110], full, short).sent).toEqual([]);
  });

  it('lets the latest started cue win when cues overlap', () => {
    const overlapping: HapticCue[] = [
      { time: 0, stopTime: 3000, strength: 1 },
      { time: 1000, stopTime: 2000, strength: 0.5 },
    ];
    expect(poll([0, 1000, 2000], full, overlapping).sent).toEqual(['0:20', '1000:10', '2000:stop']);
  });

  it('finds the running cue again after a seek backwards', () => {
    const { state } = poll([3500, 5500]);
    expect(poll([1500, 2100], full, cues, state).sent).toEqual(['1500:20', '2100:stop']);
  });

  it('finds the running cue after a seek forwards', () => {
    expect(poll([0, 4200]).sent).toEqual(['4200:5']);
  });

  it('does nothing without cues', () => {
    expect(poll([0, 1000, 5000], full, []).sent).toEqual([]);
  });
});

describe('resetHapticCursor and stopHaptics', () => {
  it('a reset makes the next step look for the cue from the start', () => {
    const { state } = poll([4500]);
    const reset = resetHapticCursor(state);
    expect(reset).toMatchObject({ cursor: 0, active: -1, level: 5 });
    expect(stepHaptics(reset, cues, 3200, full).command).toEqual({ type: 'vibrate', level: 10 });
  });

  it('stopping sends stop once and resumes the cue on the next step', () => {
    const { state } = poll([1500]);
    const stopped = stopHaptics(state);
    expect(stopped.command).toEqual({ type: 'stop' });
    expect(stopHaptics(stopped.state).command).toBeNull();
    expect(stepHaptics(stopped.state, cues, 1600, full).command).toEqual({ type: 'vibrate', level: 20 });
  });
});
