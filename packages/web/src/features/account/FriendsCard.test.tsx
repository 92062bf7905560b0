import type { FriendsList } from '@mesmer/shared/api/users';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, selfUser } from '../../test/testing.tsx';
import { FriendsCard } from './FriendsCard.tsx';

afterEach(() => vi.unstubAllGlobals());

const person = (id: number, username: string) => ({ id, username, imageURL: null });
const ann = person(2, 'ann');
const cid = person(3, 'cid');
const dee = person(4, 'dee');

describe('the friends card', () => {
  it('lists requests, friends and sent requests; Accept, Decline, Remove and Cancel send the right call', async () => {
    let lists: FriendsList = { friends: [cid], incoming: [ann], outgoing: [dee] };
    const { fetch } = renderWithProviders(<FriendsCard />, {
      user: selfUser(),
      fetchImpl: (input, init) => {
        const url = String(input);
        if (init?.method === 'PUT') lists = { friends: [ann, cid], incoming: [], outgoing: [dee] };
        if (init?.method === 'DELETE') {
          const id = Number(new URL(url, 'http://x').searchParams.get('friendId'));
          lists = {
            friends: lists.friends.filter((f) => f.id !== id),
            incoming: lists.incoming.filter((f) => f.id !== id),
            outgoing: lists.outgoing.filter((f) => f.id !== id),
          };
        }
        return json(200, lists);
      },
    });
    const requests = await screen.findByRole('region', { name: 'Friend requests' });
    expect(within(requests).getByRole('link', { name: 'ann' })).toHaveAttribute('href', '/user/ann');
    expect(within(screen.getByRole('region', { name: 'Your friends' })).getByText('cid')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Sent requests' })).getByText('dee'),
    ).toBeInTheDocument();

    fireEvent.click(within(requests).getByRole('button', { name: 'Accept ann' }));
    expect(await screen.findByRole('button', { name: 'Remove ann' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Friend requests' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Remove cid' }));
    await screen.findByRole('button', { name: 'Remove ann' });
    await vi.waitFor(() => expect(screen.queryByText('cid')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Cancel the request to dee' }));
    await vi.waitFor(() => expect(screen.queryByRole('region', { name: 'Sent requests' })).toBeNull());

    const writes = fetch.mock.calls
      .filter(([, init]) => init?.method && init.method !== 'GET')
      .map(([url, init]) => [init?.method, String(url), init?.body ?? null]);
    expect(writes).toEqual([
      ['PUT', '/api/user/friends', JSON.stringify({ friendId: 2 })],
      ['DELETE', '/api/user/friends?friendId=3', null],
      ['DELETE', '/api/user/friends?friendId=4', null],
    ]);
  });

  it('says so when there are no friends yet', async () => {
    renderWithProviders(<FriendsCard />, {
      user: selfUser(),
      fetchImpl: () => json(200, { friends: [], incoming: [], outgoing: [] }),
    });
    expect(await screen.findByText('No friends yet. Add someone from their profile.')).toBeInTheDocument();
  });
});
