import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, selfUser } from '../../test/testing.tsx';
import { CreatePlaylistPopup } from './CreatePlaylistPopup.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('CreatePlaylistPopup', () => {
  it('highlights missing fields and sends nothing', () => {
    const { fetch } = renderWithProviders(<CreatePlaylistPopup open onClose={() => {}} />, {
      user: selfUser(),
    });
    expect(screen.getByRole('combobox', { name: 'Experience level' })).toHaveDisplayValue(
      'Experience Level...',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill out all highlighted fields.');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('combobox', { name: 'Experience level' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it('creates with the level as 1-4, closes and says so', async () => {
    const onClose = vi.fn();
    const { fetch } = renderWithProviders(<CreatePlaylistPopup open onClose={onClose} />, {
      user: selfUser(),
      fetchImpl: () => json(201, { id: 3, uuid: 'u' }),
    });
    expect(screen.queryByRole('switch', { name: 'Core playlist' })).not.toBeInTheDocument();
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: ' Night ' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Experience level' }), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/playlists');
    expect(JSON.parse(String(init?.body))).toEqual({
      name: 'Night',
      description: '',
      expLevel: 3,
      isCore: false,
    });
    expect(screen.getByText('Playlist created!')).toBeInTheDocument();
  });

  it('offers the Core playlist toggle only to the site owner', () => {
    renderWithProviders(<CreatePlaylistPopup open onClose={() => {}} />, { user: selfUser({ id: 1 }) });
    expect(screen.getByRole('switch', { name: 'Core playlist' })).toBeInTheDocument();
  });

  it('starts empty every time it opens', () => {
    const { rerender } = renderWithProviders(<CreatePlaylistPopup open onClose={() => {}} />, {
      user: selfUser(),
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Draft' } });
    rerender(<CreatePlaylistPopup open={false} onClose={() => {}} />);
    rerender(<CreatePlaylistPopup open onClose={() => {}} />);
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('');
  });
});
