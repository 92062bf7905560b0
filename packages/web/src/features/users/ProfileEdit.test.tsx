import { type FriendsList, type PublicUser, publicUser } from '@mesmer/shared/api/users';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Navigate, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, selfUser, trigger } from '../../test/testing.tsx';
import UserPage from './UserPage.tsx';

afterEach(() => vi.unstubAllGlobals());

function profile(overrides: Partial<PublicUser> = {}): PublicUser {
  return publicUser.parse({
    id: 42,
    username: 'alice',
    imageURL: null,
    biography: 'Hello **there**',
    points: 0,
    streak: 0,
    roles: [],
    patreonName: null,
    triggers: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  });
}
const sleep = trigger({ id: 11, name: 'Sleep' });
const obey = trigger({ id: 12, name: 'Obey' });
/** The chosen triggers of a group (its select offers names too). */
const chips = (group: HTMLElement) => within(group).getByRole('list');
const noFriends: FriendsList = { friends: [], incoming: [], outgoing: [] };
const alice = selfUser({ id: 42, username: 'alice', biography: 'Hello **there**' });
const bob = selfUser({ id: 7, username: 'bob' });

/** /user/alice for `viewer`; `other` answers every call but the profile and playlists. */
function renderPage(
  viewer: ReturnType<typeof selfUser> | null,
  user: PublicUser,
  other: (url: string, init: RequestInit) => Promise<Response> = () => json(500, { error: 'unexpected' }),
) {
  return renderWithProviders(
    <Routes>
      <Route path="/" element={<Navigate to="/user/alice" replace />} />
      <Route path="/user/:username" element={<UserPage />} />
      <Route path="/messages" element={<p>Messages page</p>} />
    </Routes>,
    {
      user: viewer,
      fetchImpl: (input, init) => {
        const url = String(input);
        if (url.startsWith('/api/user?')) return json(200, { user });
        if (url.startsWith('/api/playlists')) return json(200, { playlists: [], totalItems: 0 });
        if (url === '/api/triggers') return json(200, { triggers: [sleep, obey] });
        return other(url, init ?? {});
      },
    },
  );
}
const callsTo = (fetch: ReturnType<typeof renderPage>['fetch'], path: string) =>
  fetch.mock.calls
    .filter(([url]) => String(url).split('?')[0] === path)
    .map(([url, init]) => ({ url: String(url), method: init?.method ?? 'GET', body: init?.body }));

describe('editing your own profile', () => {
  it('saves only the biography, and only when it changed, when leaving edit mode', async () => {
    const { fetch } = renderPage(alice, profile(), (url, init) => {
      if (url === '/api/user' && init.method === 'PUT') {
        return json(200, { user: { ...alice, biography: JSON.parse(String(init.body)).biography } });
      }
      if (url === '/api/user') return json(200, { user: alice });
      return json(500, { error: 'unexpected' });
    });
    const edit = await screen.findByRole('button', { name: 'Edit profile' });
    fireEvent.mouseEnter(edit);
    expect(screen.getByRole('tooltip')).toHaveTextContent('Edit profile');
    fireEvent.mouseLeave(edit);
    expect(screen.queryByRole('tooltip')).toBeNull();
    // No Message or friend buttons on your own profile.
    expect(screen.queryByRole('button', { name: /Message/ })).toBeNull();

    // In and out without a change: nothing is sent.
    fireEvent.click(edit);
    expect(screen.getByRole('textbox', { name: 'Biography' })).toHaveValue('Hello **there**');
    expect(screen.getByText(/Drop a profile picture here/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Finish editing' }));
    const puts = () => callsTo(fetch, '/api/user').filter((c) => c.method === 'PUT');
    expect(puts()).toEqual([]);
    expect(screen.queryByRole('textbox', { name: 'Biography' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Edit profile' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Biography' }), { target: { value: 'New *bio*' } });
    fireEvent.click(screen.getByRole('button', { name: 'Finish editing' }));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Biography' })).toBeNull());
    expect(puts()).toEqual([
      { url: '/api/user', method: 'PUT', body: JSON.stringify({ biography: 'New *bio*' }) },
    ]);
    const bio = screen.getByRole('region', { name: 'Biography' });
    expect(within(bio).getByText('bio').tagName).toBe('EM');
  });

  it('trained and in training exclude each other; leaving saves only the changed triggers', async () => {
    const start = { ...alice, triggers: [{ id: 11, name: 'Sleep', trainingAmount: 0 }] };
    const { fetch } = renderPage(start, profile({ triggers: start.triggers }), (url, init) => {
      if (url === '/api/user' && init.method === 'PUT') {
        const { triggers } = JSON.parse(String(init.body));
        const names: Record<number, string> = { 11: 'Sleep', 12: 'Obey' };
        return json(200, {
          user: {
            ...start,
            triggers: triggers.map((t: { triggerId: number; trainingAmount: number }) => ({
              id: t.triggerId,
              name: names[t.triggerId],
              trainingAmount: t.trainingAmount,
            })),
          },
        });
      }
      return json(200, { user: start });
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit profile' }));
    const trained = screen.getByRole('region', { name: 'Trained' });
    const training = screen.getByRole('region', { name: 'In training' });
    expect(within(chips(trained)).getByText('Sleep')).toBeInTheDocument();
    const addTraining = await within(training).findByRole('combobox', { name: 'Add a trigger in training' });
    await waitFor(() => expect(addTraining).toBeEnabled());

    // Sleep moves from trained to in training; Obey is added as trained.
    fireEvent.change(addTraining, { target: { value: '11' } });
    expect(within(chips(trained)).queryByText('Sleep')).toBeNull();
    expect(within(chips(training)).getByText('Sleep')).toBeInTheDocument();
    fireEvent.change(within(trained).getByRole('combobox', { name: 'Add a trained trigger' }), {
      target: { value: '12' },
    });
    expect(within(chips(trained)).getByText('Obey')).toBeInTheDocument();
    // A trigger already in a group is not offered there again.
    expect(
      within(within(training).getByRole('combobox')).queryByRole('option', { name: 'Sleep' }),
    ).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Finish editing' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Trained' })).toBeNull());
    const puts = fetch.mock.calls.filter(([, init]) => init?.method === 'PUT').map(([, init]) => init?.body);
    expect(puts).toEqual([
      JSON.stringify({
        triggers: [
          { triggerId: 11, trainingAmount: 1 },
          { triggerId: 12, trainingAmount: 0 },
        ],
      }),
    ]);
  });

  it('invites you to click edit, mentioning Markdown, when there is no biography', async () => {
    renderPage({ ...alice, biography: '' }, profile({ biography: '' }));
    expect(await screen.findByText(/click the edit icon.*Markdown is supported/i)).toBeInTheDocument();
  });

  it('Bold and Italic wrap the selection; Link opens Insert URL and puts [Text](URL) at the cursor', async () => {
    renderPage(alice, profile({ biography: 'see my site' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Edit profile' }));
    const box = screen.getByRole('textbox', { name: 'Biography' }) as HTMLTextAreaElement;

    box.setSelectionRange(4, 6);
    fireEvent.click(screen.getByRole('button', { name: 'Bold' }));
    expect(box).toHaveValue('see **my** site');
    box.setSelectionRange(11, 15);
    fireEvent.click(screen.getByRole('button', { name: 'Italic' }));
    expect(box).toHaveValue('see **my** *site*');

    box.setSelectionRange(box.value.length, box.value.length);
    fireEvent.click(screen.getByRole('button', { name: 'Link' }));
    const popup = screen.getByRole('dialog', { name: 'Insert URL' });
    fireEvent.change(within(popup).getByLabelText('URL'), { target: { value: 'example.com/me' } });
    fireEvent.change(within(popup).getByLabelText('Text'), { target: { value: 'here' } });
    fireEvent.click(within(popup).getByRole('button', { name: 'Insert' }));
    expect(box).toHaveValue('see **my** *site*[here](https://example.com/me)');
    expect(screen.queryByRole('dialog', { name: 'Insert URL' })).toBeNull();
  });
});

describe('the biography is rendered safely', () => {
  it('shows <script> as nothing runnable and javascript: links as text', async () => {
    const scripted =
      '<script>window.hacked = true</script>\n\n<img src=x onerror="window.hacked=true">\n\n' +
      '[click](javascript:window.hacked=true) [ok](https://example.com/)';
    renderPage(null, profile({ biography: scripted }));
    const bio = await screen.findByRole('region', { name: 'Biography' });
    expect(bio.querySelector('script')).toBeNull();
    expect(bio.querySelector('img')).toBeNull();
    expect(bio.querySelectorAll('a')).toHaveLength(1);
    expect(within(bio).getByRole('link', { name: 'ok' })).toHaveAttribute('href', 'https://example.com/');
    expect(bio).toHaveTextContent('click');
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
  });
});

describe("another user's profile", () => {
  const friendCalls = (
    state: FriendsList,
    after: FriendsList,
  ): ((url: string, init: RequestInit) => Promise<Response>) => {
    return (url, init) => {
      if (url.startsWith('/api/user/friends')) return json(200, init.method === 'PUT' ? after : state);
      return json(500, { error: 'unexpected' });
    };
  };
  const them = { id: 42, username: 'alice', imageURL: null };

  it('Add friend sends the request, then shows Requested; pressing Requested takes it back', async () => {
    const { fetch } = renderPage(bob, profile(), (url, init) => {
      if (url === '/api/user/friends' && init.method === 'PUT')
        return json(200, { ...noFriends, outgoing: [them] });
      if (url.startsWith('/api/user/friends?') && init.method === 'DELETE') return json(200, noFriends);
      if (url === '/api/user/friends') return json(200, noFriends);
      return json(500, { error: 'unexpected' });
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add friend' }));
    const requested = await screen.findByRole('button', { name: 'Requested' });
    expect(callsTo(fetch, '/api/user/friends').filter((c) => c.method !== 'GET')).toEqual([
      { url: '/api/user/friends', method: 'PUT', body: JSON.stringify({ friendId: 42 }) },
    ]);
    fireEvent.click(requested);
    expect(await screen.findByRole('button', { name: 'Add friend' })).toBeInTheDocument();
    expect(callsTo(fetch, '/api/user/friends').at(-1)).toMatchObject({
      url: '/api/user/friends?friendId=42',
      method: 'DELETE',
    });
  });

  it('offers Accept when they asked you, and shows Friends once accepted', async () => {
    renderPage(
      bob,
      profile(),
      friendCalls({ ...noFriends, incoming: [them] }, { ...noFriends, friends: [them] }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(await screen.findByRole('button', { name: 'Friends' })).toBeDisabled();
  });

  it('the Message button starts the two-person thread and opens it', async () => {
    const { fetch } = renderPage(bob, profile(), (url, init) => {
      if (url === '/api/user/friends') return json(200, noFriends);
      if (url === '/api/messages/threads' && init.method === 'POST') return json(200, { id: 31 });
      return json(500, { error: 'unexpected' });
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Message' }));
    expect(await screen.findByText('Messages page')).toBeInTheDocument();
    expect(callsTo(fetch, '/api/messages/threads')).toEqual([
      { url: '/api/messages/threads', method: 'POST', body: JSON.stringify({ name: null, userIds: '42' }) },
    ]);
  });

  it("toasts 'Failed to create thread.' when the thread cannot be made", async () => {
    renderPage(bob, profile(), (url) => {
      if (url === '/api/user/friends') return json(200, noFriends);
      return json(403, { error: 'You cannot message this user.' });
    });
    // Found before the act: Preact's act holds every render until its callback ends.
    const message = await screen.findByRole('button', { name: 'Message' });
    await act(async () => {
      fireEvent.click(message);
    });
    expect(await screen.findByText('Failed to create thread.')).toBeInTheDocument();
  });
});
