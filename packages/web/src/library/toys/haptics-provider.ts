import { useSyncExternalStore } from 'react';

/** How the listener connects a toy, remembered in this browser (localStorage 'hapticsProvider'). */
export type HapticsProvider = 'lovense' | 'intiface';

const KEY = 'hapticsProvider';
const listeners = new Set<() => void>();

export function loadHapticsProvider(): HapticsProvider {
  try {
    return localStorage.getItem(KEY) === 'intiface' ? 'intiface' : 'lovense';
  } catch {
    return 'lovense';
  }
}

export function saveHapticsProvider(provider: HapticsProvider): void {
  try {
    localStorage.setItem(KEY, provider);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  for (const listener of listeners) listener();
}

/** The chosen provider, re-rendering when it changes anywhere in the app. */
export function useHapticsProvider(): HapticsProvider {
  return useSyncExternalStore((onChange) => {
    listeners.add(onChange);
    return () => listeners.delete(onChange);
  }, loadHapticsProvider);
}
