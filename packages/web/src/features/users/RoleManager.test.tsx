import { type PublicUser, publicUser } from '@mesmer/shared/api/users';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, selfUser } from '../../test/testing.tsx';
import UserPage from './UserPage.tsx';

afterEach(() => vi.unstubAllGlobals());

const role = (name: string) => ({ name, showBadge: true, textColor: '#000000', background: '#FC688F' });

function profile(roles: string[]): PublicUser {
  return publicUser.parse({
    id: 42,
    username: 'alice',
    imageURL: null,
    biography: '',
    points: 0,
    streak: 0,
    roles: roles.map(role),
    patreonName: null,
    triggers: [],
    createdAt: '2026-01-01T00:00:00.000Z',
  });
}

const admin = selfUser({ id: 1, username: 'boss', roles: [role('Administrator')], permissions: [] });

/**
 * The user page of alice (id 42) holding `roles`, for `viewer`. `roleCall` answers the role
 * calls (PUT/DELETE /api/users/42/roles); the profile and playlists are answered here.
 */
function renderPage(
  viewer: ReturnType<typeof selfUser> | null,
  roles: string[],
  roleCall: (init: RequestInit, url: string) => Promise<Response> = () => json(500, { error: 'unexpected' }),
) {
  return renderWithProviders(
    <Routes location="/user/alice">
      <Route path="/user/:username" element={<UserPage />} />
    </Routes>,
    {
      user: viewer,
      fetchImpl: (input, init) => {
        const url = String(input);
        if (url.startsWith('/api/user?')) return json(200, { user: profile(roles) });
        if (url === '/api/user/friends') return json(200, { friends: [], incoming: [], outgoing: [] });
        if (url.startsWith('/api/playlists')) return json(200, { playlists: [], totalItems: 0 });
        return roleCall(init ?? {}, url);
      },
    },
  );
}

const roleCalls = (fetch: ReturnType<typeof renderPage>['fetch']) =>
  fetch.mock.calls
    .filter(([url]) => String(url).startsWith('/api/users/'))
    .map(([url, init]) => ({ url: String(url), method: init?.method, body: init?.body }));

describe('the roles on a user page', () => {
  it('shows others only the badges: no roles section, no controls', async () => {
    for (const viewer of [null, selfUser({ roles: [role('Moderator')] })]) {
      const { unmount } = renderPage(viewer, ['Verified Creator']);
      const badges = await screen.findByRole('list', { name: 'Badges' });
      expect(within(badges).getByText('Verified Creator')).toBeInTheDocument();
      expect(screen.queryByRole('region', { name: 'Roles' })).toBeNull();
      expect(screen.queryByRole('button', { name: /Remove role/ })).toBeNull();
      expect(screen.queryByRole('combobox', { name: 'Role to add' })).toBeNull();
      unmount();
    }
  });

  it('shows an administrator every role, a remove button for each grantable one, and the others to add', async () => {
    renderPage(admin, ['Administrator', 'Contributor']);
    const section = await screen.findByRole('region', { name: 'Roles' });
    const held = within(section).getByRole('list', { name: 'Roles held' });
    expect(
      within(held)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Administrator', 'Contributor×']);
    // Administrator is not changed on the site.
    expect(within(section).queryByRole('button', { name: 'Remove role Administrator' })).toBeNull();
    expect(within(section).getByRole('button', { name: 'Remove role Contributor' })).toBeInTheDocument();
    const select = within(section).getByRole('combobox', { name: 'Role to add' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Verified Creator', 'Music Creator', 'Moderator']);
  });

  it('adds the chosen role with a spinner while it is sent, then lists it', async () => {
    let answer: (res: Response) => void = () => {};
    const { fetch } = renderPage(admin, ['Contributor'], () => new Promise((resolve) => (answer = resolve)));
    const select = await screen.findByRole('combobox', { name: 'Role to add' });
    fireEvent.change(select, { target: { value: 'Moderator' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add role' }));

    expect(await screen.findByRole('status', { name: 'Adding role Moderator' })).toBeInTheDocument();
    expect(roleCalls(fetch)).toEqual([
      { url: '/api/users/42/roles', method: 'PUT', body: JSON.stringify({ role: 'Moderator' }) },
    ]);
    // A second press while the first is under way sends nothing.
    const busy = screen.getByRole('button', { name: /Add role$/ });
    expect(busy).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(busy);
    expect(roleCalls(fetch)).toHaveLength(1);

    answer(await json(200, { roles: [role('Moderator'), role('Contributor')] }));
    expect(await screen.findByRole('button', { name: 'Remove role Moderator' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Adding role Moderator' })).toBeNull();
    const options = within(screen.getByRole('combobox', { name: 'Role to add' })).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Verified Creator', 'Music Creator']);
    expect(within(screen.getByRole('list', { name: 'Badges' })).getByText('Moderator')).toBeInTheDocument();
  });

  it('removes a role and moves keyboard focus to the select, which offers it again', async () => {
    const { fetch } = renderPage(admin, ['Music Creator', 'Contributor'], () =>
      json(200, { roles: [role('Contributor')] }),
    );
    const remove = await screen.findByRole('button', { name: 'Remove role Music Creator' });
    remove.focus();
    fireEvent.click(remove);
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Remove role Music Creator' })).toBeNull(),
    );
    expect(roleCalls(fetch)).toEqual([
      { url: '/api/users/42/roles?role=Music+Creator', method: 'DELETE', body: undefined },
    ]);
    const select = screen.getByRole('combobox', { name: 'Role to add' });
    // The focus moves once the removal succeeded, which may be a render after the button went.
    await waitFor(() => expect(select).toHaveFocus());
    expect(within(select).getByRole('option', { name: 'Music Creator' })).toBeInTheDocument();
  });

  it('shows the error and keeps the roles when the change fails', async () => {
    renderPage(admin, ['Contributor'], () => json(403, { error: 'You are not allowed to do that.' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove role Contributor' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You are not allowed to do that.');
    expect(screen.getByRole('button', { name: 'Remove role Contributor' })).toBeEnabled();
  });

  it("reads the administrator's own permissions again after changing their own roles", async () => {
    const self = selfUser({ id: 42, username: 'alice', roles: [role('Administrator')] });
    const { fetch } = renderPage(self, ['Administrator'], (_init, url) =>
      url === '/api/user'
        ? json(200, { user: self })
        : json(200, { roles: [role('Administrator'), role('Moderator')] }),
    );
    fireEvent.change(await screen.findByRole('combobox', { name: 'Role to add' }), {
      target: { value: 'Moderator' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add role' }));
    await waitFor(() => expect(fetch.mock.calls.map(([url]) => String(url))).toContain('/api/user'));
  });

  it('offers no select once every grantable role is held', async () => {
    renderPage(admin, ['Moderator', 'Verified Creator', 'Music Creator', 'Contributor']);
    await screen.findByRole('region', { name: 'Roles' });
    expect(screen.getAllByRole('button', { name: /^Remove role / })).toHaveLength(4);
    expect(screen.queryByRole('combobox', { name: 'Role to add' })).toBeNull();
  });
});
