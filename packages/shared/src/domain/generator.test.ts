import { describe, expect, it } from 'vitest';
import { type GeneratorFile, type GeneratorOptions, generatePlaylist } from './generator.ts';

const MIN = 60_000;
let nextId = 1;
function file(fileType: number, minutes: number, extra: Partial<GeneratorFile> = {}): GeneratorFile {
  return {
    id: nextId++,
    fileType,
    duration: minutes * MIN,
    authorId: 1,
    triggerIds: [],
    isLocked: false,
    ...extra,
  };
}
const options = (o: Partial<GeneratorOptions> = {}): GeneratorOptions => ({
  communityFiles: false,
  includeInduction: true,
  includeAwakener: true,
  includeLoops: false,
  maxDuration: 90 * MIN,
  ...o,
});
/** A repeatable random source (a fixed sequence, cycling). */
const sequence = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length];
};
const ids = (files: GeneratorFile[]) => files.map((f) => f.id);

describe('generatePlaylist', () => {
  const induction = file(1, 10);
  const deepener = file(2, 10);
  const trigger = file(3, 5);
  const suggestion = file(4, 5);
  const loop = file(5, 5);
  const awakener = file(6, 5);
  const music = file(7, 5);
  const library = [deepener, awakener, trigger, induction, suggestion, loop, music];

  it('puts the induction first and the awakener last around the body', () => {
    const result = generatePlaylist(library, options(), sequence(0));
    expect(result[0]).toBe(induction);
    expect(result.at(-1)).toBe(awakener);
    expect(new Set(ids(result.slice(1, -1)))).toEqual(new Set(ids([deepener, trigger, suggestion])));
  });

  it('leaves out induction and awakener when not asked', () => {
    const result = generatePlaylist(
      library,
      options({ includeInduction: false, includeAwakener: false }),
      sequence(0),
    );
    expect(result).not.toContain(induction);
    expect(result).not.toContain(awakener);
    expect(result).toHaveLength(3);
  });

  it('uses only the chosen file types for the body', () => {
    const result = generatePlaylist(library, options({ fileTypes: [7] }), sequence(0));
    expect(result).toEqual([induction, music, awakener]);
  });

  it('adds loops only with includeLoops', () => {
    expect(generatePlaylist(library, options({ fileTypes: [5] }), sequence(0))).toEqual([
      induction,
      awakener,
    ]);
    expect(generatePlaylist(library, options({ fileTypes: [5], includeLoops: true }), sequence(0))).toEqual([
      induction,
      loop,
      awakener,
    ]);
  });

  it('never goes past maxDuration', () => {
    for (const max of [0, 4, 5, 14, 15, 20, 26, 35, 200]) {
      const result = generatePlaylist(library, options({ maxDuration: max * MIN }), Math.random);
      expect(result.reduce((s, f) => s + f.duration, 0)).toBeLessThanOrEqual(max * MIN);
    }
    expect(generatePlaylist(library, options({ maxDuration: 0 }))).toEqual([]);
    expect(generatePlaylist(library, options({ maxDuration: 15 * MIN }), sequence(0))).toEqual([
      induction,
      awakener,
    ]);
  });

  it('never picks a file with a hidden trigger', () => {
    const hiddenDeepener = file(2, 5, { triggerIds: [42] });
    const result = generatePlaylist([hiddenDeepener, deepener], options({ hideTriggers: [42] }), Math.random);
    expect(result).toEqual([deepener]);
  });

  it('never picks a locked file', () => {
    const locked = file(2, 5, { isLocked: true });
    expect(generatePlaylist([locked], options(), Math.random)).toEqual([]);
  });

  it("takes other creators' files only with communityFiles", () => {
    const community = file(2, 5, { authorId: 7 });
    expect(generatePlaylist([community], options())).toEqual([]);
    expect(generatePlaylist([community], options({ communityFiles: true }))).toEqual([community]);
  });

  it('weights files toward the wanted triggers', () => {
    const plain = file(2, 5);
    const matching = file(2, 5, { triggerIds: [9] });
    // Weights 1 and 4: a draw below 0.2 takes the first, anything above it the second.
    const opts = options({
      includeTriggers: [9],
      includeInduction: false,
      includeAwakener: false,
      maxDuration: 5 * MIN,
    });
    expect(generatePlaylist([plain, matching], opts, sequence(0.1))).toEqual([plain]);
    expect(generatePlaylist([plain, matching], opts, sequence(0.25))).toEqual([matching]);
    // Without wanted triggers both weigh the same.
    const even = { ...opts, includeTriggers: [] };
    expect(generatePlaylist([plain, matching], even, sequence(0.45))).toEqual([plain]);
    expect(generatePlaylist([plain, matching], even, sequence(0.55))).toEqual([matching]);
  });

  it('prefers files whose wanted triggers weigh more in the weighting table', () => {
    const light = file(2, 5, { triggerIds: [20] });
    const heavy = file(2, 5, { triggerIds: [21] });
    const opts = options({
      includeTriggers: [20, 21],
      triggerWeights: new Map([
        [20, 0.2],
        [21, 1],
      ]),
      includeInduction: false,
      includeAwakener: false,
      maxDuration: 5 * MIN,
    });
    // Weights 1 + 3 × 0.2 = 1.6 and 1 + 3 × 1 = 4: the first takes draws below 1.6 / 5.6 ≈ 0.286.
    expect(generatePlaylist([light, heavy], opts, sequence(0.28))).toEqual([light]);
    expect(generatePlaylist([light, heavy], opts, sequence(0.29))).toEqual([heavy]);
    // Over many seeded draws the heavier trigger's file comes first about 4 / 5.6 of the time.
    const draws = Array.from({ length: 1000 }, (_, i) => (i + 0.5) / 1000);
    const heavyFirst = draws.filter((d) => generatePlaylist([light, heavy], opts, sequence(d))[0] === heavy);
    expect(heavyFirst.length).toBe(714);
    // Without weights both wanted triggers weigh 1, as before.
    const unweighted = { ...opts, triggerWeights: undefined };
    expect(generatePlaylist([light, heavy], unweighted, sequence(0.45))).toEqual([light]);
    expect(generatePlaylist([light, heavy], unweighted, sequence(0.55))).toEqual([heavy]);
  });

  it('is random: different draws give different orders', () => {
    const body = [file(2, 1), file(3, 1), file(4, 1)];
    const o = options({ includeInduction: false, includeAwakener: false });
    expect(ids(generatePlaylist(body, o, sequence(0)))).toEqual(ids(body));
    expect(ids(generatePlaylist(body, o, sequence(0.99)))).toEqual(ids([...body].reverse()));
  });

  it('skips an induction that does not fit and still fills the body', () => {
    const long = file(1, 60);
    const result = generatePlaylist([long, deepener], options({ maxDuration: 30 * MIN }), sequence(0));
    expect(result).toEqual([deepener]);
  });
});
