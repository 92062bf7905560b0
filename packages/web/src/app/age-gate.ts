import { SERVED_AGE_GATE_ID } from '@mesmer/shared/domain/age-gate';
import { AGE_CONFIRMED_COOKIE } from '@mesmer/shared/domain/site';
import { useSyncExternalStore } from 'react';

/** The 18+ confirmation, remembered under the localStorage key 'ageConfirmed' = 'true'. */
export const AGE_CONFIRMED_KEY = 'ageConfirmed';
const listeners = new Set<() => void>();

export function isAgeConfirmed(): boolean {
  return localStorage.getItem(AGE_CONFIRMED_KEY) === 'true';
}

/** Tells the server too (a cookie), so the pages it sends leave the gate's markup out. */
function setAgeCookie() {
  // biome-ignore lint/suspicious/noDocumentCookie: one fixed cookie; the Cookie Store API is not in every browser yet.
  document.cookie = `${AGE_CONFIRMED_COOKIE}=true; path=/; max-age=${60 * 60 * 24 * 365}; samesite=lax`;
}

export function confirmAge() {
  localStorage.setItem(AGE_CONFIRMED_KEY, 'true');
  setAgeCookie();
  for (const l of listeners) l();
}

/**
 * At start, for a visitor who confirmed already: the page the server sent without the cookie (made
 * before the cookie existed, or after it expired) carries the gate; it goes, and the cookie comes back.
 */
export function settleServedAgeGate() {
  if (!isAgeConfirmed()) return;
  document.getElementById(SERVED_AGE_GATE_ID)?.remove();
  if (!document.cookie.split('; ').includes(`${AGE_CONFIRMED_COOKIE}=true`)) setAgeCookie();
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
