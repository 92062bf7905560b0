/**
 * How many popups are open. Never below 0; cleared on each page load (navigation);
 * page scrolling is locked while any popup is open.
 */
let level = 0;
const listeners = new Set<() => void>();

function set(next: number): number {
  level = Math.max(0, next);
  document.body.style.overflow = level > 0 ? 'hidden' : '';
  for (const l of listeners) l();
  return level;
}

export const popupStack = {
  /** Opens one more popup; answers its level (1 for the first), so it can tell whether it is on top. */
  push: () => set(level + 1),
  pop: () => set(level - 1),
  clear: () => set(0),
  level: () => level,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
