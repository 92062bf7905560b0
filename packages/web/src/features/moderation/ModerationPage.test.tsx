import type { ModerationReport } from '@mesmer/shared/api/moderation';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, renderWithProviders, selfUser } from '../../test/testing.tsx';
import ModerationPage from './ModerationPage.tsx';

const moderator = selfUser({
  roles: [{ name: 'Moderator', showBadge: true, textColor: '#000000', background: '#FC688F' }],
});

const threadReport: ModerationReport = {
  id: 7,
  subjectType: 'thread',
  subjectId: 3,
  reason: 'Threats <script>alert(1)</script>',
  createdAt: '2026-11-20T10:00:00.000Z',
  reporter: { id: 2, username: 'luna' },
  reportedUser: { id: 5, username: 'troll', suspended: false },
  subject: { exists: true, title: null, text: null, path: null },
  messages: [
    {
      id: 40,
      user: { id: 2, username: 'luna' },
      message: 'hi',
      removed: false,
      createdAt: '2026-11-20T09:59:00.000Z',
    },
    {
      id: 41,
      user: { id: 5, username: 'troll' },
      message: 'vile words',
      removed: false,
      createdAt: '2026-11-20T09:59:30.000Z',
    },
  ],
  resolution: null,
  resolvedBy: null,
  resolvedAt: null,
};

describe('/moderation', () => {
  it('tells members the queue is for moderators, without asking the server', () => {
    const { fetch } = renderWithProviders(<ModerationPage />, {
      user: selfUser(),
      fetchImpl: () => json(403, { error: 'no' }),
    });
    expect(
      screen.getByText('Only moderators and administrators can see the moderation queue.'),
    ).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows a thread report with its messages as text and removes one message with a note', async () => {
    const { fetch } = renderWithProviders(<ModerationPage />, {
      user: moderator,
      fetchImpl: async (input) =>
        String(input).includes('/actions')
          ? json(200, {
              report: {
                ...threadReport,
                resolution: 'remove',
                resolvedBy: { id: 9, username: 'mod' },
                resolvedAt: '2026-11-21T10:00:00.000Z',
              },
            })
          : json(200, { reports: [threadReport], totalItems: 1 }),
    });
    const report = await screen.findByRole('article', { name: 'Conversation #3' });
    expect(within(report).getByText('Threats <script>alert(1)</script>')).toBeInTheDocument();
    expect(within(report).getByText('vile words')).toBeInTheDocument();
    fireEvent.change(within(report).getByLabelText('Note for report 7 (optional)'), {
      target: { value: 'abusive' },
    });
    fireEvent.click(within(report).getByRole('button', { name: 'Remove message 41 by troll' }));
    await waitFor(() =>
      expect(fetch.mock.calls.some(([url]) => String(url) === '/api/moderation/reports/7/actions')).toBe(
        true,
      ),
    );
    const [, init] =
      fetch.mock.calls.find(([url]) => String(url) === '/api/moderation/reports/7/actions') ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({ action: 'remove', messageId: 41, note: 'abusive' });
    expect(await screen.findByText('Report #7 is closed.')).toBeInTheDocument();
  });

  it('offers dismiss, remove and suspend for a profile report; none for a closed one', async () => {
    const profile: ModerationReport = {
      ...threadReport,
      id: 8,
      subjectType: 'user',
      subjectId: 5,
      messages: [],
      subject: { exists: true, title: 'troll', text: 'bio', path: '/user/troll' },
    };
    renderWithProviders(<ModerationPage />, {
      user: moderator,
      fetchImpl: () => json(200, { reports: [profile], totalItems: 1 }),
    });
    const report = await screen.findByRole('article', { name: 'troll' });
    for (const name of ['Dismiss', 'Remove picture and biography', 'Suspend troll'])
      expect(within(report).getByRole('button', { name })).toBeInTheDocument();
  });
});
