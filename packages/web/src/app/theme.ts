import { useSyncExternalStore } from 'react';

/** Theme stored under the key 'light' ('true' = light, 'false' = dark); default light. */
const KEY = 'light';
const listeners = new Set<() => void>();

function isLightTheme(): boolean {
  return localStorage.getItem(KEY) !== 'false';
}

export function applyTheme() {
  document.documentElement.dataset.theme = isLightTheme() ? 'light' : 'dark';
}

function notify() {
  for (const l of listeners) l();
}

export function toggleTheme() {
  localStorage.setItem(KEY, String(!isLightTheme()));
  applyTheme();
  notify();
}

/** Another tab switched the theme: follow it. */
function onStorage(e: StorageEvent) {
  if (e.key !== KEY) return;
  applyTheme();
  notify();
}

export function useLightTheme(): boolean {
  return useSyncExternalStore(
    (l) => {
      if (listeners.size === 0) window.addEventListener('storage', onStorage);
      listeners.add(l);
      return () => {
        listeners.delete(l);
        if (listeners.size === 0) window.removeEventListener('storage', onStorage);
      };
    },
    isLightTheme,
    () => true,
  );
}
