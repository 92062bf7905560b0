export const TRIGGER_DESCRIPTION_MAX = 250;

/** The detail route's lookup rule: a uuid, else a name with spaces as underscores, lowercased. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function triggerSlug(name: string): string {
  return name.trim().replace(/\s+/g, '_').toLowerCase();
}

/** The vocabulary's categories in display order (docs/decisions/011-trigger-vocabulary.md). */
export const TRIGGER_CATEGORIES = [
  'Relaxation',
  'Focus',
  'Obedience',
  'Sensation',
  'Memory',
  'Wake-up',
  'Mindset',
  'Play',
] as const;
export type TriggerCategory = (typeof TRIGGER_CATEGORIES)[number];

/** The weighting table's range; triggers users add weigh the most, 1. */
export const TRIGGER_WEIGHT_MIN = 0.2;
export const TRIGGER_WEIGHT_MAX = 1;
