import { AWAKENER_TYPE_ID, INDUCTION_TYPE_ID, LOOP_TYPE_ID } from './file-types.ts';
import { SITE_OWNER_ID } from './permissions.ts';

const HOUR = 3_600_000;
export const GENERATOR_MAX_DURATION_MS = 3 * HOUR;
export const GENERATOR_DEFAULT_DURATION_MS = 1.5 * HOUR;

/** Body types when the request names none: deepeners, triggers and suggestions. */
export const GENERATOR_DEFAULT_BODY_TYPES: readonly number[] = [2, 3, 4];
/**
 * Extra weight per wanted trigger a file carries (a file with none weighs 1), scaled by that
 * trigger's weight from the weighting table (docs/decisions/011-trigger-vocabulary.md).
 */
export const TRIGGER_MATCH_WEIGHT = 3;

export interface GeneratorFile {
  id: number;
  fileType: number;
  /** Milliseconds. */
  duration: number;
  authorId: number;
  triggerIds: readonly number[];
  isLocked: boolean;
}

export interface GeneratorOptions {
  fileTypes?: readonly number[];
  includeTriggers?: readonly number[];
  hideTriggers?: readonly number[];
  communityFiles: boolean;
  includeInduction: boolean;
  includeAwakener: boolean;
  includeLoops: boolean;
  /** Milliseconds; the result never runs longer. */
  maxDuration: number;
  /** Weights (0.2 to 1) of the wanted triggers; a trigger not in the map weighs 1. */
  triggerWeights?: ReadonlyMap<number, number>;
}

/** A number in [0, 1); injected so tests are repeatable. */
export type RandomSource = () => number;

/** The wanted triggers and their weights. */
type Wanted = ReadonlyMap<number, number>;

function weightOf(file: GeneratorFile, wanted: Wanted): number {
  let matched = 0;
  for (const id of file.triggerIds) matched += wanted.get(id) ?? 0;
  return 1 + TRIGGER_MATCH_WEIGHT * matched;
}

/** Picks one file with probability proportional to its weight, or null when none is given. */
function pickWeighted<T extends GeneratorFile>(files: T[], wanted: Wanted, random: RandomSource): T | null {
  if (files.length === 0) return null;
  const weights = files.map((f) => weightOf(f, wanted));
  let r = random() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < files.length; i++) {
    r -= weights[i];
    if (r < 0) return files[i];
  }
  return files[files.length - 1];
}

/**
 * Builds a playlist (docs/decisions/004-playlist-generator.md): an induction first and an
 * awakener last when asked, a body in between drawn from the chosen types, weighted toward
 * files with wanted triggers (by the triggers' weights), never longer than maxDuration. Leaves out locked files, files
 * with a hidden trigger, loops unless asked and other creators' files unless asked.
 */
export function generatePlaylist<T extends GeneratorFile>(
  candidates: readonly T[],
  options: GeneratorOptions,
  random: RandomSource = Math.random,
): T[] {
  const hidden = new Set(options.hideTriggers ?? []);
  const wanted: Wanted = new Map(
    (options.includeTriggers ?? []).map((id) => [id, options.triggerWeights?.get(id) ?? 1]),
  );
  const eligible = candidates.filter(
    (f) =>
      !f.isLocked &&
      f.duration > 0 &&
      (options.communityFiles || f.authorId === SITE_OWNER_ID) &&
      (options.includeLoops || f.fileType !== LOOP_TYPE_ID) &&
      !f.triggerIds.some((id) => hidden.has(id)),
  );
  let budget = options.maxDuration;
  const fits = (f: T) => f.duration <= budget;

  const induction = options.includeInduction
    ? pickWeighted(
        eligible.filter((f) => f.fileType === INDUCTION_TYPE_ID && fits(f)),
        wanted,
        random,
      )
    : null;
  if (induction) budget -= induction.duration;
  const awakener = options.includeAwakener
    ? pickWeighted(
        eligible.filter((f) => f.fileType === AWAKENER_TYPE_ID && fits(f)),
        wanted,
        random,
      )
    : null;
  if (awakener) budget -= awakener.duration;

  const bodyTypes = new Set(options.fileTypes?.length ? options.fileTypes : GENERATOR_DEFAULT_BODY_TYPES);
  if (options.includeLoops) bodyTypes.add(LOOP_TYPE_ID);
  bodyTypes.delete(INDUCTION_TYPE_ID);
  bodyTypes.delete(AWAKENER_TYPE_ID);
  let pool = eligible.filter((f) => bodyTypes.has(f.fileType));
  const body: T[] = [];
  for (;;) {
    const next = pickWeighted(pool.filter(fits), wanted, random);
    if (!next) break;
    body.push(next);
    budget -= next.duration;
    pool = pool.filter((f) => f !== next);
  }

  return [...(induction ? [induction] : []), ...body, ...(awakener ? [awakener] : [])];
}
