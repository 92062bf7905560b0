import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, playlist, renderWithProviders } from '../../test/testing.tsx';
import { CoreSessionsCard } from './CoreSessionsCard.tsx';

afterEach(() => vi.unstubAllGlobals());

const page = (offset: number, count: number) =>
  Array.from({ length: count }, (_, i) =>
    playlist({ id: offset + i + 1, uuid: `uuid-${offset + i}`, name: `Session ${offset + i + 1}` }),
  );

describe('CoreSessionsCard', () => {
  it('asks for core playlists 12 at a time and pages with the Pagination control', async () => {
    const { fetch } = renderWithProviders(<CoreSessionsCard />, {
      fetchImpl: async (input) => {
        const url = new URL(String(input), 'http://localhost');
        const offset = Number(url.searchParams.get('pageOffset'));
        return json(200, { playlists: page(offset, offset === 0 ? 12 : 2), totalItems: 14 });
      },
    });
    expect(await screen.findByText('Session 1')).toBeInTheDocument();
    const first = new URL(String(fetch.mock.calls[0][0]), 'http://localhost');
    expect(first.pathname).toBe('/api/playlists');
    expect(Object.fromEntries(first.searchParams)).toEqual({
      core: 'true',
      isPublic: 'true',
      series: 'false',
      sort: 'explevel',
      sortDir: 'asc',
      simple: 'true',
      pageSize: '12',
      pageOffset: '0',
    });
    expect(screen.getByText('of 2')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Session 13')).toBeInTheDocument();
    const second = new URL(String(fetch.mock.calls.at(-1)?.[0]), 'http://localhost');
    expect(second.searchParams.get('pageOffset')).toBe('12');
    expect(screen.getByRole('link', { name: /Session 14/ })).toHaveAttribute('href', '/playlist/uuid-13');
  });

  it('hides the pagination when everything fits on one page', async () => {
    renderWithProviders(<CoreSessionsCard />, {
      fetchImpl: () => json(200, { playlists: page(0, 3), totalItems: 3 }),
    });
    expect(await screen.findByText('Session 3')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('says the playlists could not be loaded and retries', async () => {
    let fail = true;
    renderWithProviders(<CoreSessionsCard />, {
      fetchImpl: () =>
        fail ? json(500, { error: 'boom' }) : json(200, { playlists: page(0, 1), totalItems: 1 }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The playlists could not be loaded. Try again.',
    );
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again.' }));
    await waitFor(() => expect(screen.getByText('Session 1')).toBeInTheDocument());
  });
});
