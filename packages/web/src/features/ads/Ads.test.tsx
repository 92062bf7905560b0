import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentUserQuery } from '../../api/users.ts';
import { renderWithProviders, selfUser } from '../../test/testing.tsx';
import { Ads } from './Ads.tsx';
import { AD_ZONE_EVENT } from './scripts.ts';

const ads = {
  scriptUrl: 'https://ads.example.net/serve.js',
  desktopZone: 'desk-1',
  mobileZone: 'mob-1',
  adFreeTierIds: ['21902510', '21927318'],
};
const analytics = { scriptUrl: 'https://stats.example.org/script.js', siteId: 'site-7' };

const membership = (tierId: string, active = true) => ({
  creatorName: 'Creator',
  tierName: 'Supporter',
  tierId,
  active,
  cancelled: false,
  lastVerified: null,
});

/** A matchMedia whose "(max-width: 768px)" answer the test sets and changes. */
function fakeViewport(isPhone: boolean) {
  const listeners = new Set<() => void>();
  const state = { isPhone };
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return query === '(max-width: 768px)' && state.isPhone;
    },
    media: query,
    addEventListener: (_: string, fn: () => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
  }));
  return {
    resize(phone: boolean) {
      state.isPhone = phone;
      act(() => {
        for (const fn of listeners) fn();
      });
    },
  };
}

const scripts = () => [...document.querySelectorAll('script')].map((s) => s.getAttribute('src'));
const zones = () => [...document.querySelectorAll<HTMLElement>('[data-ad-zone]')];

beforeEach(() => {
  for (const s of document.querySelectorAll('script')) s.remove();
});
afterEach(() => vi.unstubAllGlobals());

describe('Ads', () => {
  it('renders and injects nothing when neither ads nor analytics are configured', () => {
    fakeViewport(false);
    const { container, fetch } = renderWithProviders(<Ads ads={undefined} analytics={undefined} />);
    expect(container.querySelector('aside')).toBeNull();
    expect(scripts()).toEqual([]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows a visitor the 728×90 zone on desktop and loads the ad script once', () => {
    fakeViewport(false);
    const { rerender } = renderWithProviders(<Ads ads={ads} analytics={undefined} />);
    expect(screen.getByRole('complementary', { name: 'Advertisement' })).toBeInTheDocument();
    const [zone] = zones();
    expect(zones()).toHaveLength(1);
    expect(zone.dataset.adZone).toBe('desk-1');
    expect(zone.dataset.adSize).toBe('728x90');
    expect(zone.style.width).toBe('728px');
    expect(zone.style.height).toBe('90px');
    rerender(<Ads ads={ads} analytics={undefined} />);
    expect(scripts()).toEqual(['https://ads.example.net/serve.js']);
  });

  it('shows only the 300×100 zone on a phone, and swaps zones when the viewport changes', () => {
    const viewport = fakeViewport(true);
    const seen: unknown[] = [];
    const onZone = (e: Event) => seen.push((e as CustomEvent).detail);
    window.addEventListener(AD_ZONE_EVENT, onZone);
    renderWithProviders(<Ads ads={ads} analytics={undefined} />, { user: selfUser() });
    expect(zones().map((z) => [z.dataset.adZone, z.dataset.adSize])).toEqual([['mob-1', '300x100']]);
    viewport.resize(false);
    expect(zones().map((z) => [z.dataset.adZone, z.dataset.adSize])).toEqual([['desk-1', '728x90']]);
    // The loaded script hears of each new zone; it is still loaded only once.
    expect(seen).toEqual([expect.any(HTMLElement), zones()[0]]);
    expect(scripts()).toEqual(['https://ads.example.net/serve.js']);
    window.removeEventListener(AD_ZONE_EVENT, onZone);
  });

  it('shows no ad, and loads no ad script, for an active member of an ad-free tier', () => {
    fakeViewport(false);
    renderWithProviders(<Ads ads={ads} analytics={undefined} />, {
      user: selfUser({ memberships: [membership('21927318')] }),
    });
    expect(zones()).toEqual([]);
    expect(scripts()).toEqual([]);
  });

  it('shows ads to a member of another tier or of a lapsed ad-free membership', () => {
    fakeViewport(false);
    renderWithProviders(<Ads ads={ads} analytics={undefined} />, {
      user: selfUser({ memberships: [membership('555'), membership('21902510', false)] }),
    });
    expect(zones()).toHaveLength(1);
  });

  it('waits for the user before showing any zone', () => {
    fakeViewport(false);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <Ads ads={ads} analytics={undefined} />
      </QueryClientProvider>,
    );
    expect(zones()).toEqual([]);
    expect(scripts()).toEqual([]);
  });

  it('shows no zone when the user could not be read', async () => {
    fakeViewport(false);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"error":"Down."}', { status: 503 })),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <Ads ads={ads} analytics={undefined} />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(client.getQueryState(currentUserQuery.queryKey)?.status).toBe('error'));
    expect(zones()).toEqual([]);
    expect(scripts()).toEqual([]);
  });

  it('loads the analytics script once with its site id, for ad-free members too', () => {
    fakeViewport(false);
    const { rerender } = renderWithProviders(<Ads ads={undefined} analytics={analytics} />, {
      user: selfUser({ memberships: [membership('21902510')] }),
    });
    rerender(<Ads ads={undefined} analytics={analytics} />);
    const loaded = [...document.querySelectorAll('script')];
    expect(loaded.map((s) => [s.getAttribute('src'), s.dataset.siteId, s.textContent])).toEqual([
      ['https://stats.example.org/script.js', 'site-7', ''],
    ]);
    expect(zones()).toEqual([]);
  });
});
