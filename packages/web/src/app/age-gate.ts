import { useSyncExternalStore } from 'react';

/** The 18+ confirmation, remembered under the localStorage key 'ageConfirmed' = 'true'. */
export const AGE_CONFIRMED_KEY = 'ageConfirmed';
const listeners = new Set<() => void>();

function isAgeConfirmed(): boolean {
  return localStorage.getItem(AGE_CONFIRMED_KEY) === 'true';
}

export function confirmAge() {
  localStorage.setItem(AGE_CONFIRMED_KEY, 'true');
  for (const l of listeners) l();
}

export function useAgeConfirmed(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    isAgeConfirmed,
    () => false,
  );
}
