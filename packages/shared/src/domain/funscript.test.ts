import { describe, expect, it } from 'vitest';
import { cuesToFunscript, FULL_STRENGTH_SPEED, funscriptToCues } from './funscript.ts';

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

describe('cuesToFunscript', () => {
  const exported = (cues: { time: number; stopTime: number; strength: number }[]) => {
    const result = cuesToFunscript(cues);
    if (!result.ok) throw new Error(result.error);
    return result.value;
  };

  it('writes a cue as a move at its speed, holding still between cues', () => {
    expect(
      exported([
        { time: 1000, stopTime: 1100, strength: 0.5 },
        { time: 2000, stopTime: 2040, strength: 1 },
      ]),
    ).toEqual({
      version: '1.0',
      inverted: false,
      range: 100,
      actions: [
        { at: 1000, pos: 0 },
        { at: 1100, pos: 25 },
        { at: 2000, pos: 25 },
        { at: 2040, pos: 45 },
      ],
    });
  });

  it('splits a long cue into strokes up and down within 0-100', () => {
    const { actions } = exported([{ time: 0, stopTime: 10_000, strength: 0.8 }]);
    // 0.8 × 0.5 positions/ms × 10 s = 4,000 positions of travel, at most 49 a stroke.
    expect(actions).toHaveLength(Math.ceil(4000 / 49) + 1);
    for (const a of actions) expect(a.pos).toBeGreaterThanOrEqual(0);
    for (const a of actions) expect(a.pos).toBeLessThanOrEqual(100);
    expect(funscriptToCues(exported([{ time: 0, stopTime: 10_000, strength: 0.8 }]))).toEqual({
      ok: true,
      value: [{ time: 0, stopTime: 10_000, strength: 0.8 }],
    });
  });

  it('round-trips cues through funscriptToCues', () => {
    // A fixed pseudo-random list: gaps, touching cues, short and long cues, every strength step.
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const cues: { time: number; stopTime: number; strength: number }[] = [];
    let time = 0;
    let last = 0;
    for (let i = 0; i < 2000; i++) {
      time += random() < 0.3 ? 0 : Math.round(random() * 3000);
      const stopTime = time + 1 + Math.round(random() ** 3 * 20_000);
      let strength = Math.round(random() * 100) / 100 || 0.01;
      if (strength === last && cues.at(-1)?.stopTime === time)
        strength = strength === 1 ? 0.99 : strength + 0.01;
      strength = Math.round(strength * 100) / 100;
      cues.push({ time, stopTime, strength });
      last = strength;
      time = stopTime;
    }
    expect(funscriptToCues(exported(cues))).toEqual({ ok: true, value: cues });
  });

  it('merges touching cues of the same strength and leaves strength 0 out, as the import does', () => {
    const back = funscriptToCues(
      exported([
        { time: 0, stopTime: 100, strength: 0.3 },
        { time: 100, stopTime: 200, strength: 0.3 },
        { time: 200, stopTime: 300, strength: 0 },
        { time: 300, stopTime: 400, strength: 0.6 },
      ]),
    );
    expect(back).toEqual({
      ok: true,
      value: [
        { time: 0, stopTime: 200, strength: 0.3 },
        { time: 300, stopTime: 400, strength: 0.6 },
      ],
    });
  });

  it('plays overlapping cues as the scheduler does: each until the next one starts', () => {
    const back = funscriptToCues(
      exported([
        { time: 500, stopTime: 2000, strength: 0.9 },
        { time: 0, stopTime: 1000, strength: 0.2 },
      ]),
    );
    expect(back).toEqual({
      ok: true,
      value: [
        { time: 0, stopTime: 500, strength: 0.2 },
        { time: 500, stopTime: 2000, strength: 0.9 },
      ],
    });
  });

  it('refuses when no cue vibrates', () => {
    const error = { ok: false, error: 'There are no cues with a strength above 0 to export.' };
    expect(cuesToFunscript([])).toEqual(error);
    expect(cuesToFunscript([{ time: 0, stopTime: 100, strength: 0 }])).toEqual(error);
  });
});
