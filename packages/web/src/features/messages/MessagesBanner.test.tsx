import { type Thread, thread as threadSchema } from '@mesmer/shared/api/messages';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, selfUser } from '../../test/testing.tsx';
import { FakeSocket } from './fake-socket.ts';
import { MessagesBanner } from './index.ts';

const sockets = vi.hoisted(() => ({ current: null as unknown, made: 0 }));
vi.mock('socket.io-client', () => ({
  io: () => {
    sockets.made += 1;
    return sockets.current;
  },
}));

let socket: FakeSocket;
beforeEach(() => {
  socket = new FakeSocket();
  sockets.current = socket;
  sockets.made = 0;
});
afterEach(() => vi.unstubAllGlobals());

const thread = (overrides: Partial<Thread>): Thread =>
  threadSchema.parse({
    id: 1,
    name: 'luna',
    users: [{ id: 6, username: 'luna', imageURL: null }],
    userIds: [5, 6],
    lastRead: 0,
    mostRecentMessage: 0,
    isGroup: false,
    ...overrides,
  });

function render(signedIn: boolean, pages: Thread[][]) {
  let served = 0;
  return renderWithProviders(<MessagesBanner />, {
    user: signedIn ? selfUser() : null,
    fetchImpl: () => {
      const threads = pages[Math.min(served, pages.length - 1)];
      served += 1;
      return json(200, { threads, totalItems: threads.length });
    },
  });
}

describe('MessagesBanner', () => {
  it('shows a View action to /messages when a thread is unread', async () => {
    render(true, [
      [
        thread({ id: 1, mostRecentMessage: 3, lastRead: 3 }),
        thread({ id: 2, mostRecentMessage: 8, lastRead: 2 }),
      ],
    ]);
    const banner = await screen.findByRole('complementary', { name: 'New messages' });
    expect(screen.getByRole('link', { name: 'View' })).toHaveAttribute('href', '/messages');
    expect(banner).toHaveTextContent('You have new messages.');
    expect(socket.connected).toBe(true);
  });

  it('stays hidden when everything is read, and appears after a thread_updated', async () => {
    const { fetch } = render(true, [
      [thread({ mostRecentMessage: 4, lastRead: 4 })],
      [thread({ mostRecentMessage: 5, lastRead: 4 })],
    ]);
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 80)); // past the 50 ms debounce
    expect(screen.queryByRole('complementary', { name: 'New messages' })).not.toBeInTheDocument();
    act(() => socket.serverEmit('thread_updated', { threadId: 1, mostRecentMessage: 5 }));
    expect(await screen.findByRole('complementary', { name: 'New messages' })).toBeInTheDocument();
  });

  it('shows nothing and opens no socket for signed-out visitors', async () => {
    const { fetch } = render(false, [[thread({ mostRecentMessage: 5 })]]);
    await new Promise((r) => setTimeout(r, 80));
    expect(screen.queryByRole('complementary')).not.toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
    expect(sockets.made).toBe(0);
  });
});
