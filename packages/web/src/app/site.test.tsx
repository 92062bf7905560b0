import { render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const injected = {
  siteName: 'Trance Hub',
  wikiUrl: 'https://wiki.example.org',
  contactEmail: 'hi@example.org',
};

/** index.html as the server serves it, with the operator's settings in the meta tag. */
function injectSettings(content: string) {
  const meta = document.createElement('meta');
  meta.name = 'mesmer-site';
  meta.content = content;
  document.head.appendChild(meta);
}

afterEach(() => {
  for (const meta of document.head.querySelectorAll('meta[name="mesmer-site"]')) meta.remove();
  vi.resetModules();
});

describe('run-time site settings', () => {
  it('reach the page title and the footer', async () => {
    injectSettings(JSON.stringify(injected));
    vi.resetModules();
    const { usePageTitle } = await import('../ui/usePageTitle.ts');
    const { Footer } = await import('./Footer.tsx');
    // The reset made a new React Router too (the tests inline it, vite.config.ts): its Link needs its router.
    const { MemoryRouter } = await import('react-router');
    renderHook(() => usePageTitle('Cookie Policy'));
    expect(document.title).toBe('Cookie Policy - Trance Hub');
    render(
      <MemoryRouter>
        <Footer />
      </MemoryRouter>,
    );
    expect(screen.getByText(/Trance Hub · For listeners 18\+/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Wiki' })).toHaveAttribute('href', 'https://wiki.example.org');
  });

  it('fall back to the defaults when the tag is missing or malformed', async () => {
    const { readSiteSettings } = await import('../lib/site.ts');
    const defaults = {
      siteName: 'Mesmer',
      wikiUrl: 'https://wiki.mesmer.local',
      contactEmail: 'support@mesmer.local',
    };
    expect(readSiteSettings(document)).toEqual(defaults);
    injectSettings('{not json');
    expect(readSiteSettings(document)).toEqual(defaults);
    document.head.querySelector('meta[name="mesmer-site"]')?.remove();
    injectSettings(JSON.stringify({ siteName: 'Trance Hub' }));
    expect(readSiteSettings(document)).toEqual({ ...defaults, siteName: 'Trance Hub' });
  });
});
