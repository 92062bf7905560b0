import { SESSION_MARKER_COOKIE } from '@mesmer/shared/domain/site';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readSessionMarker, SESSION_POLL_MS, useSessionSync } from './session-sync.ts';

/** Stands in for the server's Set-Cookie; jsdom has no Cookie Store API. */
function writeCookie(raw: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: simulating the server setting and clearing cookies
  document.cookie = raw;
}

function setMarker(value: string | null) {
  writeCookie(
    value === null
      ? `${SESSION_MARKER_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`
      : `${SESSION_MARKER_COOKIE}=${value}; path=/`,
  );
}

function renderSync() {
  const client = new QueryClient();
  const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  renderHook(() => useSessionSync(), { wrapper });
  return invalidate;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  setMarker(null);
});

describe('session marker cookie', () => {
  it('reads the marker among other cookies', () => {
    writeCookie('other=1; path=/');
    setMarker('42');
    expect(readSessionMarker()).toBe('42');
    setMarker(null);
    expect(readSessionMarker()).toBeNull();
  });

  it('polls every 300 ms', () => {
    expect(SESSION_POLL_MS).toBe(300);
  });

  it('refetches when another tab signs in, and again when it signs out', () => {
    const invalidate = renderSync();
    vi.advanceTimersByTime(900);
    expect(invalidate).not.toHaveBeenCalled();

    setMarker('7');
    vi.advanceTimersByTime(SESSION_POLL_MS);
    expect(invalidate).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(900);
    expect(invalidate).toHaveBeenCalledTimes(1);

    setMarker(null);
    vi.advanceTimersByTime(SESSION_POLL_MS);
    expect(invalidate).toHaveBeenCalledTimes(2);
  });

  it('notices a different user signing in', () => {
    setMarker('7');
    const invalidate = renderSync();
    setMarker('8');
    vi.advanceTimersByTime(SESSION_POLL_MS);
    expect(invalidate).toHaveBeenCalledTimes(1);
  });
});
