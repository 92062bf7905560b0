/** When a file or playlist counts as new. */

/** A track is 'New!' for 5 days after its release date. */
export const NEW_FILE_MS = 432_000_000;
/** A playlist is 'New!' for 14 days after it was created (where a list asks for the tag). */
export const NEW_PLAYLIST_MS = 14 * 86_400_000;

function isWithin(isoDate: string, windowMs: number, now: number): boolean {
  const at = Date.parse(isoDate);
  if (Number.isNaN(at)) return false;
  const age = now - at;
  return age >= 0 && age < windowMs;
}

export function isNewFile(releaseDate: string, now: number): boolean {
  return isWithin(releaseDate, NEW_FILE_MS, now);
}

export function isNewPlaylist(dateCreated: string, now: number): boolean {
  return isWithin(dateCreated, NEW_PLAYLIST_MS, now);
}
