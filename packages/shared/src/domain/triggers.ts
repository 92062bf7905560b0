export const TRIGGER_DESCRIPTION_MAX = 250;

/** The detail route's lookup rule: a uuid, else a name with spaces as underscores, lowercased. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function triggerSlug(name: string): string {
  return name.trim().replace(/\s+/g, '_').toLowerCase();
}
