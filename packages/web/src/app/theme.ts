import { useSyncExternalStore } from 'react';

/** Theme stored under the key 'light' ('true' = light, 'false' = dark); default light. */
const KEY = 'light';
const listeners = new Set<() => void>();

export function isLightTheme(): boolean {
  return localStorage.getItem(KEY) !== 'false';
}

export function applyTheme() {
  document.documentElement.dataset.theme = isLightTheme() ? 'light' : 'dark';
}

export function toggleTheme() {
  localStorage.setItem(KEY, String(!isLightTheme()));
  applyTheme();
  for (const l of listeners) l();
}

export function useLightTheme(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    isLightTheme,
    () => true,
  );
}
