import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ThirdParties } from './CookiesPage.tsx';

describe('Cookie Policy: third parties', () => {
  it('says no advertising or analytics cookies are set when none is configured', () => {
    render(<ThirdParties />);
    expect(screen.getByText(/sets no advertising or analytics cookies/)).toBeInTheDocument();
    expect(screen.queryByText('Advertising')).toBeNull();
  });

  it('names the configured ad network and analytics by origin', () => {
    render(
      <ThirdParties
        ads={{ scriptUrl: 'https://ads.example.net/serve.js?z=1', adFreeTierIds: [] }}
        analytics={{ scriptUrl: 'https://stats.example.org/js/script.js' }}
      />,
    );
    expect(screen.getByText('https://ads.example.net')).toBeInTheDocument();
    expect(screen.getByText('https://stats.example.org')).toBeInTheDocument();
    expect(screen.getByText(/ad-free Patreon tier see no ads/)).toBeInTheDocument();
    expect(screen.queryByText(/sets no advertising or analytics cookies/)).toBeNull();
  });

  it('lists only analytics when only analytics is on', () => {
    render(<ThirdParties analytics={{ scriptUrl: 'https://stats.example.org/js/script.js' }} />);
    expect(screen.getByText('Analytics')).toBeInTheDocument();
    expect(screen.queryByText('Advertising')).toBeNull();
  });
});
