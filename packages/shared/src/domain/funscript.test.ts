import { describe, expect, it } from 'vitest';
import { FULL_STRENGTH_SPEED, funscriptToCues } from './funscript.ts';

const script = (actions: { at: number; pos: number }[], extra: object = {}) => ({
  version: '1.0',
  inverted: false,
  range: 100,
  actions,
  ...extra,
});

describe('funscriptToCues', () => {
  it('turns each move into a cue timed by the actions, strength from its speed', () => {
    // 0 → 100 in 200 ms: full speed; 100 → 50 in 1000 ms: 0.05 / ms = 0.1 of full.
    const result = funscriptToCues(
      script([
        { at: 0, pos: 0 },
        { at: 200, pos: 100 },
        { at: 1200, pos: 50 },
      ]),
    );
    expect(result).toEqual({
      ok: true,
      value: [
        { time: 0, stopTime: 200, strength: 1 },
        { time: 200, stopTime: 1200, strength: 0.1 },
      ],
    });
    expect(FULL_STRENGTH_SPEED).toBe(0.5);
  });

  it('caps strength at 1 and rounds to two decimals', () => {
    const result = funscriptToCues(
      script([
        { at: 0, pos: 0 },
        { at: 50, pos: 100 },
        { at: 350, pos: 90 },
      ]),
    );
    // 10 positions in 300 ms: 0.0333 / 0.5 = 0.0667 → 0.07.
    expect(result).toEqual({
      ok: true,
      value: [
        { time: 0, stopTime: 50, strength: 1 },
        { time: 50, stopTime: 350, strength: 0.07 },
      ],
    });
  });

  it('sorts actions by time, keeping the last of actions at the same time', () => {
    const result = funscriptToCues(
      script([
        { at: 1000, pos: 0 },
        { at: 0, pos: 0 },
        { at: 1000, pos: 100 },
      ]),
    );
    expect(result).toEqual({ ok: true, value: [{ time: 0, stopTime: 1000, strength: 0.2 }] });
  });

  it('leaves pauses out and merges touching cues of the same strength', () => {
    const result = funscriptToCues(
      script([
        { at: 0, pos: 0 },
        { at: 500, pos: 50 },
        { at: 1000, pos: 100 },
        { at: 3000, pos: 100 },
        { at: 3500, pos: 50 },
      ]),
    );
    expect(result).toEqual({
      ok: true,
      value: [
        { time: 0, stopTime: 1000, strength: 0.2 },
        { time: 3000, stopTime: 3500, strength: 0.2 },
      ],
    });
  });

  it('scales travel by range; inverting does not change the speed', () => {
    const actions = [
      { at: 0, pos: 0 },
      { at: 1000, pos: 100 },
    ];
    expect(funscriptToCues(script(actions, { range: 50 }))).toEqual({
      ok: true,
      value: [{ time: 0, stopTime: 1000, strength: 0.1 }],
    });
    expect(funscriptToCues(script(actions, { inverted: true }))).toEqual(funscriptToCues(script(actions)));
  });

  it('takes scripts without inverted or range', () => {
    expect(
      funscriptToCues({
        actions: [
          { at: 0, pos: 0 },
          { at: 400, pos: 100 },
        ],
      }),
    ).toEqual({ ok: true, value: [{ time: 0, stopTime: 400, strength: 0.5 }] });
  });

  it('names the first bad action', () => {
    expect(
      funscriptToCues(
        script([
          { at: 0, pos: 0 },
          { at: 10, pos: 101 },
        ]),
      ),
    ).toEqual({
      ok: false,
      error: 'Action 2: pos must be a number from 0 to 100.',
    });
    expect(
      funscriptToCues(
        script([
          { at: -1, pos: 0 },
          { at: 10, pos: 1 },
        ]),
      ),
    ).toEqual({
      ok: false,
      error: 'Action 1: at must be a number of milliseconds ≥ 0.',
    });
    expect(funscriptToCues(script([{ at: 0, pos: 0 }, 'x' as never]))).toEqual({
      ok: false,
      error: 'Action 2: must be an object {at, pos}.',
    });
  });

  it('refuses what is not a Funscript', () => {
    expect(funscriptToCues([1, 2])).toEqual({
      ok: false,
      error: 'A funscript must be a JSON object with an actions list.',
    });
    expect(funscriptToCues({ version: '1.0' })).toEqual({
      ok: false,
      error: 'A funscript must have an actions list.',
    });
    expect(funscriptToCues(script([{ at: 0, pos: 0 }]))).toEqual({
      ok: false,
      error: 'A funscript needs at least two actions.',
    });
    expect(funscriptToCues(script([], { inverted: 'yes' }))).toEqual({
      ok: false,
      error: 'inverted must be true or false.',
    });
    expect(funscriptToCues(script([], { range: 0 }))).toEqual({
      ok: false,
      error: 'range must be a number from 1 to 100.',
    });
  });

  it('refuses a script that never moves', () => {
    expect(
      funscriptToCues(
        script([
          { at: 0, pos: 40 },
          { at: 1000, pos: 40 },
        ]),
      ),
    ).toEqual({
      ok: false,
      error: 'The funscript never moves, so it gives no vibration.',
    });
  });
});
