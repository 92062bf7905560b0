import type { SelfUser } from '@mesmer/shared/api/users';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, selfUser, trigger } from '../../test/testing.tsx';
import TriggersPage from './TriggersPage.tsx';

afterEach(() => vi.unstubAllGlobals());

const owner = { id: 1, username: 'mesmer' };
const published = [
  trigger({ name: 'Blank', isCore: true, creator: owner, category: 'Focus' }),
  trigger({ name: 'Sleep Now', isCore: true, creator: owner, category: 'Relaxation' }),
  trigger({ name: 'Melt', isCore: true, creator: null, category: 'Relaxation' }),
  trigger({ name: 'Owner Extra', isCore: true, creator: owner }),
  trigger({ name: 'Moon Glow', creator: { id: 4, username: 'lunadrift' } }),
];
const request = trigger({ name: 'Soft Chime', pending: true, creator: { id: 5, username: 'dreamer' } });

function render(user: SelfUser | null, requests = [request]) {
  return renderWithProviders(<TriggersPage />, {
    user,
    fetchImpl: (input, init) => {
      const { pathname } = new URL(String(input), 'http://localhost');
      if (pathname === '/api/triggers/requests') return json(200, { triggers: requests });
      if (pathname === '/api/triggers' && init?.method === 'PUT')
        return json(200, { trigger: { ...request, pending: false } });
      if (pathname === '/api/trigger') return json(204, null);
      return json(200, { triggers: published });
    },
  });
}

describe('TriggersPage', () => {
  it('groups core triggers by vocabulary category in order, others last, community apart', async () => {
    render(null);
    const core = await screen.findByRole('list', { name: 'Core Triggers' });
    const headings = within(core)
      .getAllByRole('heading')
      .map((h) => h.textContent);
    expect(headings).toEqual(['Relaxation', 'Focus', 'Other']);
    const relaxation = within(core).getByRole('list', { name: 'Relaxation' });
    expect(
      within(relaxation)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual([expect.stringContaining('Sleep Now'), expect.stringContaining('Melt')]);
    const community = screen.getByRole('list', { name: 'Community Triggers' });
    expect(within(community).getByRole('link')).toHaveTextContent('by lunadrift');
    expect(screen.queryByText('Trigger requests')).not.toBeInTheDocument();
  });

  it('shows a requester their pending requests without review buttons', async () => {
    render(selfUser({ permissions: ['REQUEST_TRIGGERS'] }));
    const mine = await screen.findByRole('list', { name: 'Your trigger requests' });
    expect(within(mine).getByText('Pending')).toBeInTheDocument();
    expect(within(mine).getByText('Soft Chime')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve Soft Chime' })).not.toBeInTheDocument();
  });

  it('lets staff approve, edit and delete a request', async () => {
    const { fetch } = render(selfUser({ permissions: ['CREATE_TRIGGERS', 'REQUEST_TRIGGERS'] }));
    const list = await screen.findByRole('list', { name: 'Trigger requests' });
    expect(within(list).getByText('requested by dreamer')).toBeInTheDocument();

    fireEvent.click(within(list).getByRole('button', { name: 'Approve Soft Chime' }));
    await screen.findByText('Trigger approved!');
    const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ id: request.id, approve: true });

    fireEvent.click(within(list).getByRole('button', { name: 'Edit Soft Chime' }));
    const form = screen.getByRole('form', { name: 'Edit Soft Chime' });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Name' }), { target: { value: ' Chime ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(fetch.mock.calls.filter(([, init]) => init?.method === 'PUT')).toHaveLength(2),
    );
    const edit = fetch.mock.calls.filter(([, init]) => init?.method === 'PUT')[1];
    expect(JSON.parse(String(edit[1]?.body))).toEqual({ id: request.id, name: 'Chime', description: '' });

    fireEvent.click(await within(list).findByRole('button', { name: 'Delete Soft Chime' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await screen.findByText('Trigger deleted.');
    const del = fetch.mock.calls.find(([, init]) => init?.method === 'DELETE');
    expect(String(del?.[0])).toBe(`/api/trigger?id=${request.id}`);
  });
});
