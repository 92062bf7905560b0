import type { Thread } from '@mesmer/shared/api/messages';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, selfUser } from '../../test/testing.tsx';
import { BlockThreadSlot } from './BlockThreadSlot.tsx';

afterEach(() => vi.unstubAllGlobals());

const thread: Thread = {
  id: 9,
  name: 'luna',
  users: [{ id: 6, username: 'luna', imageURL: null }],
  userIds: [6],
  lastRead: 0,
  mostRecentMessage: 0,
  isGroup: false,
};

function Chat() {
  const location = useLocation();
  return (
    <>
      <BlockThreadSlot thread={thread} />
      <output aria-label="Location">{location.pathname + location.search}</output>
    </>
  );
}

const render = (answer: () => Promise<Response>) =>
  renderWithProviders(
    <Routes>
      <Route path="*" element={<Chat />} />
    </Routes>,
    { user: selfUser(), fetchImpl: answer },
  );

describe('the chat’s Block action', () => {
  it('blocks with a report and its details, then closes the thread', async () => {
    const { fetch } = render(() => json(200, { blocked: [6], reportId: 3 }));
    fireEvent.click(screen.getByRole('button', { name: 'Block' }));
    fireEvent.click(screen.getByLabelText('Also report to the moderators'));
    fireEvent.change(screen.getByLabelText('Details (optional)'), { target: { value: 'Spam links' } });
    fireEvent.click(confirmButton());
    await waitFor(() => expect(screen.getByLabelText('Location')).toHaveTextContent(/^\/messages$/));
    const [url, init] = fetch.mock.calls[0];
    expect(String(url)).toBe('/api/user/block');
    expect(JSON.parse(String(init?.body))).toEqual({
      threadId: 9,
      report: true,
      reportMessage: 'Spam links',
    });
    expect(await screen.findByText('The report was sent to the moderators.')).toBeInTheDocument();
  });

  it('blocks without a report, and shows the reason when it fails', async () => {
    const { fetch } = render(() => json(404, { error: 'Thread not found.' }));
    fireEvent.click(screen.getByRole('button', { name: 'Block' }));
    fireEvent.click(confirmButton());
    expect(await screen.findByText('Failed to block.')).toBeInTheDocument();
    expect(screen.getByText('Thread not found.')).toBeInTheDocument();
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({ threadId: 9, report: false });
    expect(screen.getByLabelText('Location')).toHaveTextContent(/^\/$/);
  });
});

/** The popup's confirm button (the header's Block button is behind the popup). */
function confirmButton() {
  const buttons = screen.getAllByRole('button', { name: 'Block' });
  return buttons[buttons.length - 1];
}
