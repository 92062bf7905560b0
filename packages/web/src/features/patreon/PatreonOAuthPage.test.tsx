import type { PatreonStatus } from '@mesmer/shared/api/patreon';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentUserQuery } from '../../api/users.ts';
import { contractCheckedFetch, json, selfUser } from '../../test/testing.tsx';
import { ToastViewport } from '../../ui/index.ts';
import PatreonOAuthDebugPage from './PatreonOAuthDebugPage.tsx';
import PatreonOAuthPage from './PatreonOAuthPage.tsx';

const linked: PatreonStatus = {
  patreonLinked: true,
  patreonName: 'Pat Patron',
  memberships: [
    {
      creatorName: 'Mesmer',
      tierName: 'Supporter',
      tierId: '21902510',
      active: true,
      cancelled: false,
      lastVerified: '2026-06-01T12:00:00.000Z',
    },
  ],
};

function AccountStub() {
  const location = useLocation();
  return <p>Account page {location.hash}</p>;
}

function HomeStub() {
  return <p>Home page</p>;
}

/** The callback at `url`, inside a router that also has the account page. */
function renderAt(url: string, fetchImpl: typeof fetch) {
  const fetchMock = vi.fn(contractCheckedFetch(fetchImpl));
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(currentUserQuery.queryKey, selfUser());
  const { unmount } = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/patreon/oauth" element={<PatreonOAuthPage />} />
          <Route path="/patreon/oauth/debug" element={<PatreonOAuthDebugPage />} />
          <Route path="/account" element={<AccountStub />} />
          <Route path="/" element={<HomeStub />} />
        </Routes>
        <ToastViewport />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { fetch: fetchMock, client, unmount };
}

afterEach(() => {
  // Toasts live in a store of their own: clear this test's.
  for (const button of screen.queryAllByRole('button', { name: 'Dismiss' })) act(() => button.click());
  vi.unstubAllGlobals();
});

describe('the Patreon OAuth callback page', () => {
  it('sends the code and state once, says the account is linked and goes to the account page', async () => {
    const { fetch, client } = renderAt('/patreon/oauth?code=the-code&state=the-state', () =>
      json(200, linked),
    );
    expect(await screen.findByText('Account page #patreon')).toBeInTheDocument();
    expect(screen.getByText('Account linked!').closest('[role=status]')).toHaveTextContent(
      'Your Patreon account is now linked.',
    );
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/patreon/token');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual({ authCode: 'the-code', state: 'the-state' });
    expect(client.getQueryData(currentUserQuery.queryKey)).toMatchObject(linked);
  });

  it('says linking failed when the server refuses, and still goes to the account page', async () => {
    renderAt('/patreon/oauth?code=c&state=forged', () =>
      json(403, { error: 'This Patreon link was not started here or has expired.' }),
    );
    expect(await screen.findByText('Account page #patreon')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Linking failed.Please try again.');
  });

  it("shows 'Linking account...' while the server links the account", async () => {
    let answer!: (res: Response) => void;
    const { fetch } = renderAt(
      '/patreon/oauth?code=the-code&state=the-state',
      () => new Promise<Response>((resolve) => (answer = resolve)),
    );
    expect(screen.getByText('Linking account...')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Linking your Patreon account' })).toBeInTheDocument();
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    answer(new Response(JSON.stringify(linked), { status: 200 }));
    expect(await screen.findByText('Account page #patreon')).toBeInTheDocument();
  });

  it('says linking failed and goes to / without asking the server when there is no code', async () => {
    for (const url of ['/patreon/oauth', '/patreon/oauth?error=access_denied&state=s']) {
      const { fetch, unmount } = renderAt(url, () => json(200, linked));
      expect(await screen.findByText('Home page')).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent('Linking failed.');
      expect(fetch).not.toHaveBeenCalled();
      act(() => screen.getByRole('button', { name: 'Dismiss' }).click());
      unmount();
    }
  });

  it('shows the raw result on the debug variant and stays', async () => {
    renderAt('/patreon/oauth/debug?code=the-code&state=the-state', () => json(200, linked));
    const raw = (await screen.findByText('Raw result')).closest('figure') as HTMLElement;
    expect(raw).toHaveTextContent('"patreonName": "Pat Patron"');
    expect(raw).toHaveTextContent('"state": "the-state"');
    expect(raw).not.toHaveTextContent('the-code');
    expect(screen.queryByText(/Account page/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your account' })).toHaveAttribute(
      'href',
      '/account#patreon',
    );
  });
});
