import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, selfUser } from '../test/testing.tsx';
import { useStartThread } from './useStartThread.ts';

afterEach(() => vi.unstubAllGlobals());

function MessageButton() {
  const start = useStartThread();
  const location = useLocation();
  return (
    <>
      <button type="button" onClick={() => start.mutate(6)}>
        Message luna
      </button>
      <output aria-label="Location">{location.pathname + location.search}</output>
    </>
  );
}

const render = (answer: () => Promise<Response>) =>
  renderWithProviders(
    <Routes>
      <Route path="*" element={<MessageButton />} />
    </Routes>,
    { user: selfUser(), fetchImpl: answer },
  );

describe('useStartThread', () => {
  it('creates the two-person thread and opens it', async () => {
    const { fetch } = render(() => json(200, { id: 42 }));
    fireEvent.click(screen.getByRole('button', { name: 'Message luna' }));
    await waitFor(() => expect(screen.getByLabelText('Location')).toHaveTextContent('/messages?thread=42'));
    const [url, init] = fetch.mock.calls[0];
    expect(String(url)).toBe('/api/messages/threads');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ name: null, userIds: '6' });
  });

  it("toasts 'Failed to create thread.' with the reason", async () => {
    render(() => json(403, { error: 'You cannot message this user.' }));
    fireEvent.click(screen.getByRole('button', { name: 'Message luna' }));
    expect(await screen.findByText('Failed to create thread.')).toBeInTheDocument();
    expect(screen.getByText('You cannot message this user.')).toBeInTheDocument();
    expect(screen.getByLabelText('Location')).toHaveTextContent(/^\/$/);
  });
});
