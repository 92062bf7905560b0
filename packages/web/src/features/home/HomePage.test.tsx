import { SESSION_MARKER_COOKIE } from '@mesmer/shared/domain/site';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WithFeatureSlots } from '../../test/testing.tsx';
import HomePage from './HomePage.tsx';

/** Stands in for the server's Set-Cookie; jsdom has no Cookie Store API. */
function writeCookie(raw: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: simulating the server setting and clearing the marker
  document.cookie = raw;
}

afterEach(() => {
  vi.unstubAllGlobals();
  writeCookie(`${SESSION_MARKER_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT`);
});

/** The home page before any answer has come (every request still pending). */
function renderBeforeAnswers() {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise<Response>(() => {})),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <WithFeatureSlots>
        <MemoryRouter>
          <HomePage />
        </MemoryRouter>
      </WithFeatureSlots>
    </QueryClientProvider>,
  );
}

describe('HomePage while the user is not yet known', () => {
  it("shows a visitor's cards at once when no sign-in marker is set, so nothing moves down later", () => {
    renderBeforeAnswers();
    expect(screen.getByRole('heading', { name: 'Welcome to Mesmer' })).toBeInTheDocument();
    expect(screen.getByText('Create an account to start creating playlists!')).toBeInTheDocument();
  });

  it('waits for the answer when the marker says someone is signed in', () => {
    writeCookie(`${SESSION_MARKER_COOKIE}=7`);
    renderBeforeAnswers();
    expect(screen.queryByRole('heading', { name: 'Welcome to Mesmer' })).not.toBeInTheDocument();
    expect(screen.queryByText('Create an account to start creating playlists!')).not.toBeInTheDocument();
  });
});
