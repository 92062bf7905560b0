import {
  type Message,
  message as messageSchema,
  type Thread,
  thread as threadSchema,
} from '@mesmer/shared/api/messages';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, selfUser } from '../../test/testing.tsx';
import { FakeSocket } from './fake-socket.ts';
import MessagesPage from './MessagesPage.tsx';

const sockets = vi.hoisted(() => ({ current: null as unknown }));
vi.mock('socket.io-client', () => ({ io: () => sockets.current }));

let socket: FakeSocket;
beforeEach(() => {
  socket = new FakeSocket();
  sockets.current = socket;
});
afterEach(() => vi.unstubAllGlobals());

const me = selfUser({ id: 5, username: 'dreamer' });
const luna = { id: 6, username: 'luna', imageURL: null };

function thread(overrides: Partial<Thread> = {}): Thread {
  return threadSchema.parse({
    id: 1,
    name: 'luna',
    users: [luna],
    userIds: [5, 6],
    lastRead: 0,
    mostRecentMessage: 0,
    isGroup: false,
    ...overrides,
  });
}

function message(id: number, text: string, senderId = 6): Message {
  return messageSchema.parse({
    id,
    senderId,
    threadId: 1,
    message: text,
    removed: false,
    createdAt: '2026-11-23T20:00:00.000Z',
    sender: senderId === 6 ? luna : { id: 5, username: 'dreamer', imageURL: null },
  });
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => message(from + i, `Message ${from + i}`));

interface Fakes {
  threads?: Thread[];
  totalItems?: number;
  history?: (before: string | null) => Message[] | 'fail';
  send?: 'fail' | number;
  threadFails?: boolean;
}

function render(path: string, fakes: Fakes = {}) {
  window.history.pushState({}, '', path);
  const threads = fakes.threads ?? [thread()];
  return renderWithProviders(
    <Routes>
      <Route path="*" element={<MessagesPage />} />
    </Routes>,
    {
      user: me,
      fetchImpl: (input, init) => {
        const url = new URL(String(input), 'http://localhost');
        const method = init?.method ?? 'GET';
        if (url.pathname === '/api/messages/threads')
          return json(200, { threads, totalItems: fakes.totalItems ?? threads.length });
        if (url.pathname === '/api/messages/thread')
          return fakes.threadFails ? json(500, { error: 'Boom.' }) : json(200, threads[0]);
        if (url.pathname === '/api/messages/read') return json(204, null);
        if (url.pathname === '/api/messages' && method === 'POST') {
          if (fakes.send === 'fail') return json(500, { error: 'Boom.' });
          return json(200, { success: true, id: fakes.send ?? 500 });
        }
        if (url.pathname === '/api/messages') {
          const page = fakes.history?.(url.searchParams.get('before')) ?? [];
          if (page === 'fail') return json(500, { error: 'Boom.' });
          return json(200, { messages: page, startingId: page[0]?.id ?? 0 });
        }
        return json(404, { error: 'Not found.' });
      },
    },
  );
}

// renderWithProviders wraps in a MemoryRouter; start it on the path under test.
vi.mock('react-router', async (importOriginal) => {
  const actual = await importOriginal<typeof import('react-router')>();
  return {
    ...actual,
    MemoryRouter: ({ children }: { children: React.ReactNode }) => (
      <actual.MemoryRouter initialEntries={[window.location.pathname + window.location.search]}>
        {children}
      </actual.MemoryRouter>
    ),
  };
});

describe('thread list', () => {
  it('lists threads with avatar, group badge, name and New! only when unread', async () => {
    render('/messages', {
      threads: [
        thread({ id: 1, name: 'luna', mostRecentMessage: 9, lastRead: 4 }),
        thread({
          id: 2,
          name: 'Night owls',
          isGroup: true,
          users: [luna, { id: 7, username: 'sol', imageURL: null }],
          userIds: [5, 6, 7],
          mostRecentMessage: 3,
          lastRead: 3,
        }),
      ],
    });
    const list = await screen.findByRole('list', { name: 'Threads' });
    const items = within(list).getAllByRole('link');
    expect(items.map((i) => i.textContent)).toEqual(['?lunaNew!', '2Night owls']);
    expect(items[0]).toHaveAttribute('href', '/messages?thread=1');
    expect(within(items[1]).getByRole('img', { name: 'Group of 2 others' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Messages' })).toBeInTheDocument();
  });

  it('shows the exact empty text', async () => {
    render('/messages', { threads: [] });
    expect(
      await screen.findByText("Start a conversation by clicking the ... icon on someone's profile!"),
    ).toBeInTheDocument();
  });

  it('pages at 16 threads', async () => {
    const { fetch } = render('/messages', { threads: [thread()], totalItems: 40 });
    await screen.findByRole('list', { name: 'Threads' });
    const first = fetch.mock.calls.find(([u]) => String(u).startsWith('/api/messages/threads'));
    expect(String(first?.[0])).toBe('/api/messages/threads?pageOffset=0&pageSize=16');
    expect(screen.getByText('of 3')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /next/i }));
    await waitFor(() =>
      expect(fetch.mock.calls.map(([u]) => String(u))).toContain(
        '/api/messages/threads?pageOffset=16&pageSize=16',
      ),
    );
  });

  it('refetches the list when the server says a thread was updated', async () => {
    const { fetch } = render('/messages');
    await screen.findByRole('list', { name: 'Threads' });
    const before = fetch.mock.calls.filter(([u]) => String(u).startsWith('/api/messages/threads')).length;
    // The page listens from its effects, which Preact runs after the paint that shows the list.
    await waitFor(() => expect(socket.listeners('thread_updated')).toBeGreaterThan(0));
    act(() => socket.serverEmit('thread_updated', { threadId: 1, mostRecentMessage: 12 }));
    await waitFor(() =>
      expect(fetch.mock.calls.filter(([u]) => String(u).startsWith('/api/messages/threads')).length).toBe(
        before + 1,
      ),
    );
  });

  it('refetches the list on a message, which stands for thread_updated on a socket with its thread open', async () => {
    const { fetch } = render('/messages');
    await screen.findByRole('list', { name: 'Threads' });
    const lists = () =>
      fetch.mock.calls.filter(([u]) => String(u).startsWith('/api/messages/threads')).length;
    const before = lists();
    await waitFor(() => expect(socket.listeners('message')).toBeGreaterThan(0));
    act(() => socket.serverEmit('message', message(12, 'new')));
    await waitFor(() => expect(lists()).toBe(before + 1));
  });
});

describe('chat view', () => {
  it('joins the room, shows history and live messages, marks them read', async () => {
    const { fetch } = render('/messages?thread=1', { history: () => range(1, 3) });
    const list = await screen.findByRole('list', { name: 'Messages' });
    await within(list).findByText('Message 3');
    expect(socket.connected).toBe(true);
    expect(socket.emitted).toContainEqual(['set_thread', 1, null, null]);
    act(() => socket.serverEmit('bulk_messages', { messages: range(2, 4), startingId: 2 }));
    act(() => socket.serverEmit('message', message(5, 'Live one')));
    act(() => socket.serverEmit('message', { ...message(6, 'Other thread'), threadId: 2 }));
    await within(list).findByText('Live one');
    expect(
      within(list)
        .getAllByText(/^Message \d$/)
        .map((e) => e.textContent),
    ).toEqual(['Message 1', 'Message 2', 'Message 3', 'Message 4']);
    expect(within(list).queryByText('Other thread')).not.toBeInTheDocument();
    await waitFor(() => {
      const reads = fetch.mock.calls.filter(([u]) => String(u) === '/api/messages/read');
      expect(JSON.parse(String(reads.at(-1)?.[1]?.body))).toEqual({ threadId: 1, messageId: 5 });
    });
  });

  it('marks a message read only once the page is on screen', async () => {
    let state: DocumentVisibilityState = 'hidden';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
    try {
      const { fetch } = render('/messages?thread=1', { history: () => range(1, 2) });
      await screen.findByText('Message 2');
      const reads = () => fetch.mock.calls.filter(([u]) => String(u) === '/api/messages/read');
      expect(reads()).toHaveLength(0);
      state = 'visible';
      act(() => {
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await waitFor(() => expect(reads()).toHaveLength(1));
      expect(JSON.parse(String(reads()[0][1]?.body))).toEqual({ threadId: 1, messageId: 2 });
    } finally {
      Reflect.deleteProperty(document, 'visibilityState');
    }
  });

  it('sends on Enter, keeps a newline on Shift+Enter, counts characters', async () => {
    const { fetch } = render('/messages?thread=1', { history: () => [], send: 77 });
    const box = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'line one' } });
    expect(fireEvent.keyDown(box, { key: 'Enter', shiftKey: true })).toBe(true); // default kept: a newline
    fireEvent.change(box, { target: { value: 'line one\nline two ' } });
    expect(screen.getByText('18/2000')).toBeInTheDocument();
    expect(fetch.mock.calls.some(([, i]) => i?.method === 'POST')).toBe(false);
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(box).toHaveValue(''));
    const post = fetch.mock.calls.find(([, i]) => i?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ threadId: 1, message: 'line one\nline two' });
    const sent = await screen.findByText(/line one/);
    expect(sent.textContent).toBe('line one\nline two');
    expect(sent.closest('li')).toHaveAttribute('data-message-id', '77');
    expect(box).toHaveAttribute('maxlength', '2000');
  });

  it("toasts 'Failed to send' and keeps the draft", async () => {
    render('/messages?thread=1', { history: () => [], send: 'fail' });
    const box = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'hello' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByText('Failed to send')).toBeInTheDocument();
    expect(screen.getByText('The message failed to send.')).toBeInTheDocument();
    expect(box).toHaveValue('hello');
  });

  it("toasts 'Failed to load messages.' when the history or the thread fails", async () => {
    render('/messages?thread=1', { history: () => 'fail', threadFails: true });
    expect(await screen.findAllByText('Failed to load messages.')).not.toHaveLength(0);
  });

  it('links only http(s) and mailto, shows script payloads as text', async () => {
    const payload =
      '<script>window.__pwned = 1</script> javascript:alert(1) see https://ok.example/x and ftp://no.example';
    render('/messages?thread=1', { history: () => [message(1, payload), message(2, 'mail me@x.org')] });
    const list = await screen.findByRole('list', { name: 'Messages' });
    await within(list).findByText(/<script>/);
    expect(within(list).getByText(/<script>/).textContent).toBe(payload);
    expect(list.querySelector('script')).toBeNull();
    const links = within(list).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://ok.example/x', 'mailto:me@x.org']);
    for (const a of links) {
      expect(a).toHaveAttribute('rel', 'noopener noreferrer');
      expect(a).toHaveAttribute('target', '_blank');
    }
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('loads older messages when scrolled to the top and keeps the reading position', async () => {
    const { fetch } = render('/messages?thread=1', {
      history: (before) => (before === null ? range(31, 60) : before === '31' ? range(1, 30) : []),
    });
    const list = await screen.findByRole('list', { name: 'Messages' });
    await within(list).findByText('Message 60');
    // jsdom has no layout: each row is 20 px tall.
    let top = 0;
    Object.defineProperty(list, 'scrollHeight', { configurable: true, get: () => list.children.length * 20 });
    Object.defineProperty(list, 'clientHeight', { configurable: true, get: () => 300 });
    Object.defineProperty(list, 'scrollTop', {
      configurable: true,
      get: () => top,
      set: (v: number) => {
        top = v;
      },
    });
    const rowsBefore = list.children.length;
    top = 0;
    fireEvent.scroll(list);
    await within(list).findByText('Message 1');
    expect(fetch.mock.calls.map(([u]) => String(u))).toContain('/api/messages?threadId=1&before=31');
    expect(within(list).getAllByText(/^Message \d+$/)).toHaveLength(60);
    // The 30 older rows went in above: the view moved down by their height, so Message 31 stays in place.
    await waitFor(() => expect(top).toBe((list.children.length - rowsBefore) * 20));
    expect(top).toBe(600);
  });

  it('closes the chat when ?thread goes', async () => {
    render('/messages?thread=1', { history: () => [] });
    await screen.findByRole('region', { name: /Chat:/ });
    fireEvent.click(screen.getByRole('link', { name: 'Close chat' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /Chat:/ })).not.toBeInTheDocument());
    expect(screen.getByText('Select a conversation to read it.')).toBeInTheDocument();
  });
});
