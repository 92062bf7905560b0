import { SESSION_MARKER_COOKIE } from '@mesmer/shared/domain/site';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

/** Spec: cookie changes are polled every 300 ms. */
export const SESSION_POLL_MS = 300;

export function readSessionMarker(): string | null {
  for (const part of document.cookie.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_MARKER_COOKIE) return decodeURIComponent(value.join('=')) || null;
  }
  return null;
}

/** The marker this tab has already acted on; a different one means another tab signed in or out. */
let seenMarker: string | null = null;

/** Called after this tab signs in or out itself, so the poll does not refetch a second time. */
export function markSessionSeen() {
  seenMarker = readSessionMarker();
}

/**
 * Follows sign-in and sign-out made in other tabs: when the marker cookie changes,
 * every query is refetched (the current user first among them), since all of them
 * may depend on who is signed in.
 */
export function useSessionSync() {
  const queryClient = useQueryClient();
  useEffect(() => {
    markSessionSeen();
    const timer = setInterval(() => {
      const marker = readSessionMarker();
      if (marker === seenMarker) return;
      seenMarker = marker;
      void queryClient.invalidateQueries();
    }, SESSION_POLL_MS);
    return () => clearInterval(timer);
  }, [queryClient]);
}
