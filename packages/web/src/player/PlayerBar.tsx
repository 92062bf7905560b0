/** The audio player bar fixed at the bottom (filled by the player capability). */
export function PlayerBar() {
  return null;
}
