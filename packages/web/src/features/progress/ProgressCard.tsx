/** Points and level card on the home page (filled by the listening capability). */
export function ProgressCard() {
  return null;
}
