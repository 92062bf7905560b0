import type { SelfUser } from '@mesmer/shared/api/users';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useCurrentUser } from '../../api/auth.ts';
import { currentUserQuery } from '../../api/users.ts';
import { json, renderWithProviders, selfUser } from '../../test/testing.tsx';
import { membershipStatus } from './membership-status.ts';
import { PatreonCard } from './PatreonCard.tsx';

const membership = (overrides: Partial<SelfUser['memberships'][number]>) => ({
  creatorName: 'Mesmer',
  tierName: 'Supporter',
  tierId: '21902510',
  active: true,
  cancelled: false,
  lastVerified: '2026-06-01T12:00:00.000Z',
  ...overrides,
});

/** The card gets the user from the query cache, as on the account page. */
function Card({ linkingAvailable = true }: { linkingAvailable?: boolean }) {
  const { user } = useCurrentUser();
  return user && <PatreonCard user={user} linkingAvailable={linkingAvailable} />;
}

afterEach(() => {
  // Toasts live in a store of their own: clear this test's.
  for (const button of screen.queryAllByRole('button', { name: 'Dismiss' })) act(() => button.click());
  vi.unstubAllGlobals();
});

describe('membership status labels', () => {
  it('are Cancelled if cancelled, else Active if active, else Ended', () => {
    expect(membershipStatus({ cancelled: true, active: true })).toBe('Cancelled');
    expect(membershipStatus({ cancelled: true, active: false })).toBe('Cancelled');
    expect(membershipStatus({ cancelled: false, active: true })).toBe('Active');
    expect(membershipStatus({ cancelled: false, active: false })).toBe('Ended');
  });
});

describe('PatreonCard', () => {
  it('lists the memberships with their status labels', () => {
    const user = selfUser({
      patreonLinked: true,
      patreonName: 'Pat Patron',
      memberships: [
        membership({ tierId: 'a', tierName: 'Supporter' }),
        membership({ tierId: 'b', tierName: 'Devotee', active: true, cancelled: true }),
        membership({ tierId: 'c', creatorName: 'Luna Drift', tierName: 'Moonlight', active: false }),
      ],
    });
    renderWithProviders(<Card />, { user });
    expect(screen.getByText('Pat Patron')).toBeInTheDocument();
    const items = within(screen.getByRole('list', { name: 'Memberships' })).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'Mesmer · SupporterActive',
      'Mesmer · DevoteeCancelled',
      'Luna Drift · MoonlightEnded',
    ]);
  });

  it('offers linking: gets the authorize URL and goes there', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const { fetch } = renderWithProviders(<Card />, {
      user: selfUser(),
      fetchImpl: () => json(200, { url: 'https://www.patreon.com/oauth2/authorize?state=s' }),
    });
    expect(screen.getByText('No Patreon account is linked yet.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /Link Patreon/ }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://www.patreon.com/oauth2/authorize?state=s'),
    );
    expect(fetch.mock.calls[0][0]).toBe('/api/patreon/authorize');
  });

  it('lets creators link with their campaign (the campaigns scope)', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const creatorRole = { name: 'Verified Creator', showBadge: true, textColor: '#fff', background: '#000' };
    const { fetch } = renderWithProviders(<Card />, {
      user: selfUser({ roles: [creatorRole] }),
      fetchImpl: () => json(200, { url: 'https://www.patreon.com/oauth2/authorize?scope=campaigns' }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Link as a creator' }));
    await waitFor(() => expect(assign).toHaveBeenCalled());
    expect(fetch.mock.calls[0][0]).toBe('/api/patreon/authorize?creator=true');
  });

  it('says so, without a link button, when the site has no Patreon client', () => {
    renderWithProviders(<Card linkingAvailable={false} />, { user: selfUser() });
    expect(screen.getByText('Patreon linking is not configured on this site.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Link Patreon/ })).not.toBeInTheDocument();
  });

  it('refreshes the memberships from the server', async () => {
    const user = selfUser({ patreonLinked: true, memberships: [membership({})] });
    const { client } = renderWithProviders(<Card />, {
      user,
      fetchImpl: () =>
        json(200, { patreonLinked: true, patreonName: null, memberships: [membership({ cancelled: true })] }),
    });
    fireEvent.click(screen.getByRole('button', { name: /Refresh/ }));
    expect(await screen.findByText('Cancelled')).toBeInTheDocument();
    expect((client.getQueryData(currentUserQuery.queryKey) as SelfUser).memberships[0].cancelled).toBe(true);
  });

  it('disconnects after confirming, with the spec toast, or says it failed', async () => {
    const user = selfUser({ patreonLinked: true, memberships: [membership({})] });
    const { client, fetch } = renderWithProviders(<Card />, { user, fetchImpl: () => json(204, null) });
    fireEvent.click(screen.getByRole('button', { name: /Disconnect/ }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('Disconnected from Patreon')).toBeInTheDocument();
    expect(fetch.mock.calls[0][1]?.method).toBe('DELETE');
    expect(client.getQueryData(currentUserQuery.queryKey)).toMatchObject({
      patreonLinked: false,
      memberships: [],
    });
    expect(screen.getByText('No Patreon account is linked yet.')).toBeInTheDocument();
  });

  it('says Failed to disconnect. when the server fails', async () => {
    const user = selfUser({ patreonLinked: true, memberships: [membership({})] });
    renderWithProviders(<Card />, { user, fetchImpl: () => json(503, { error: 'Not configured.' }) });
    fireEvent.click(screen.getByRole('button', { name: /Disconnect/ }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to disconnect.');
    expect(screen.getByRole('list', { name: 'Memberships' })).toBeInTheDocument();
  });
});
