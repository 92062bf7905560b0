import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, playlist, renderWithProviders, selfUser } from '../../test/testing.tsx';
import { RatingButtons } from './RatingButtons.tsx';

afterEach(() => vi.unstubAllGlobals());

const community = playlist({ id: 7, likes: 2, dislikes: 1, favorites: 4, creator: { id: 9, username: 'c' } });
const info = {
  id: 7,
  isLiked: false,
  isDisliked: false,
  isFavorite: false,
  likes: 2,
  dislikes: 1,
  likeRatio: 66.7,
};

function deferred() {
  let resolve!: (r: Response) => void;
  const promise = new Promise<Response>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('RatingButtons', () => {
  it('shows nothing to rate for signed-out viewers, only the like ratio', () => {
    renderWithProviders(<RatingButtons playlist={community} />);
    expect(screen.queryByRole('button', { name: 'Like' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Favourite' })).not.toBeInTheDocument();
    expect(screen.getByText('66.7% liked')).toBeInTheDocument();
  });

  it('offers only favourite on core playlists and playlists of the site owner', async () => {
    renderWithProviders(<RatingButtons playlist={{ ...community, isCore: true }} />, {
      user: selfUser(),
      fetchImpl: () => json(200, info),
    });
    expect(await screen.findByRole('button', { name: 'Favourite' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Like' })).not.toBeInTheDocument();
  });

  it('offers only favourite on your own playlist, which the server refuses to rate', async () => {
    renderWithProviders(<RatingButtons playlist={community} />, {
      user: selfUser({ id: community.creator.id }),
      fetchImpl: () => json(200, info),
    });
    expect(await screen.findByRole('button', { name: 'Favourite' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Like' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Dislike' })).not.toBeInTheDocument();
  });

  it('likes at once, moving the dislike over, and sends the new rating', async () => {
    const put = deferred();
    const { fetch } = renderWithProviders(<RatingButtons playlist={community} />, {
      user: selfUser(),
      fetchImpl: (_input, init) =>
        init?.method === 'PUT' ? put.promise : json(200, { ...info, isDisliked: true }),
    });
    const like = await screen.findByRole('button', { name: 'Like' });
    await waitFor(() => expect(like).toBeEnabled());
    expect(screen.getByRole('button', { name: 'Dislike' })).toHaveAttribute('aria-pressed', 'true');

    fireEvent.click(like);
    expect(like).toHaveAttribute('aria-pressed', 'true');
    expect(like).toHaveTextContent('3');
    expect(screen.getByRole('button', { name: 'Dislike' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'Dislike' })).toHaveTextContent('0');
    expect(screen.getByText('100% liked')).toBeInTheDocument();
    await waitFor(() => expect(fetch.mock.calls.some(([, i]) => i?.method === 'PUT')).toBe(true));
    const [, init] = fetch.mock.calls.find(([, i]) => i?.method === 'PUT')!;
    expect(JSON.parse(String(init?.body))).toEqual({
      id: 7,
      isLiked: true,
      isDisliked: false,
      isFavorite: false,
    });
    put.resolve(
      new Response(JSON.stringify({ ...info, isLiked: true, likes: 3, dislikes: 0 }), { status: 200 }),
    );
    await waitFor(() => expect(like).toHaveTextContent('3'));
  });

  it('quietly reverts a rating the server refused', async () => {
    renderWithProviders(<RatingButtons playlist={community} />, {
      user: selfUser(),
      fetchImpl: (_input, init) => (init?.method === 'PUT' ? json(500, { error: 'no' }) : json(200, info)),
    });
    const favourite = await screen.findByRole('button', { name: 'Favourite' });
    await waitFor(() => expect(favourite).toBeEnabled());
    fireEvent.click(favourite);
    expect(favourite).toHaveAttribute('aria-pressed', 'true');
    expect(favourite).toHaveTextContent('5');
    await waitFor(() => expect(favourite).toHaveAttribute('aria-pressed', 'false'));
    expect(favourite).toHaveTextContent('4');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
