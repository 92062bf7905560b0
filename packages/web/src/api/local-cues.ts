/**
 * Cue lists that live in this page, addressed like cue files: the cue editor previews its DRAFT by
 * playing the file with such an address as its hapticsURL, so the player's own haptics driver (and
 * the seek bar's cue strip) read the draft through `fetchHapticCues` like any cue file. Addresses
 * are not URLs the browser fetches (the content security policy would refuse blob: URLs anyway).
 */
import type { HapticCue } from '@mesmer/shared/domain/haptic-cues';

const PREFIX = 'local-cues:';
const lists = new Map<string, readonly HapticCue[]>();
let made = 0;

export function isLocalCuesAddress(url: string): boolean {
  return url.startsWith(PREFIX);
}

/** Keeps `cues` under a new address until released. */
export function keepLocalCues(cues: readonly HapticCue[]): string {
  made += 1;
  const address = `${PREFIX}${made}`;
  lists.set(address, cues);
  return address;
}

export function releaseLocalCues(address: string): void {
  lists.delete(address);
}

/** The cues at a local address; none once released (e.g. a queue restored after a reload). */
export function localCues(address: string): HapticCue[] {
  return [...(lists.get(address) ?? [])];
}
