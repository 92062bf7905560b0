import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, selfUser } from '../../test/testing.tsx';
import { AvatarDrop } from './AvatarDrop.tsx';

afterEach(() => {
  for (const button of screen.queryAllByRole('button', { name: 'Dismiss' })) act(() => button.click());
  vi.unstubAllGlobals();
});

const image = (name: string) => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });

/** A drop of `files` on the zone, as the browser sends it. */
function drop(files: File[]) {
  const zone = screen.getByText(/Drop a profile picture here/).closest('label') as HTMLElement;
  fireEvent.drop(zone, { dataTransfer: { files, types: ['Files'] } });
}

describe('the avatar drop zone', () => {
  it('takes one image at a time: several say so and upload nothing', async () => {
    const { fetch } = renderWithProviders(<AvatarDrop />, { user: selfUser() });
    drop([image('a.png'), image('b.png')]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Only one file can be uploaded at a time.');
    fireEvent.change(screen.getByLabelText('Profile picture'), {
      target: { files: [image('c.png'), image('d.png')] },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getAllByRole('alert')).toHaveLength(2);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('uploads a single dropped image', async () => {
    const { fetch } = renderWithProviders(<AvatarDrop />, {
      user: selfUser(),
      fetchImpl: () => json(200, { url: '/avatars/1-256.webp' }),
    });
    drop([image('me.png')]);
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(fetch.mock.calls[0][0]).toBe('/api/user/upload');
    expect(await screen.findByText('Profile picture updated.')).toBeInTheDocument();
  });
});
