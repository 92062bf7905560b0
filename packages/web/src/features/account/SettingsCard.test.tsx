import type { SelfUser } from '@mesmer/shared/api/users';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useCurrentUser } from '../../api/auth.ts';
import { currentUserQuery } from '../../api/users.ts';
import { json, renderWithProviders, selfUser } from '../../test/testing.tsx';
import { SettingsCard } from './SettingsCard.tsx';

const user = selfUser();

/** The card gets the user from the query cache, as on the account page; Lovense is configured. */
function Card({ lovenseAvailable = true }: { lovenseAvailable?: boolean }) {
  const { user: current } = useCurrentUser();
  return current && <SettingsCard user={current} lovenseAvailable={lovenseAvailable} />;
}

/**
 * The Lovense panel (the default way to connect a toy) reads the account's toys; `fetch` is the
 * spy on every other call.
 */
function renderCard(fetchImpl: typeof fetch) {
  const settingsFetch = vi.fn(fetchImpl);
  const rendered = renderWithProviders(<Card />, {
    user,
    fetchImpl: (input, init) =>
      String(input).startsWith('/api/lovense/')
        ? json(200, { connected: false, toys: [] })
        : settingsFetch(input, init),
  });
  return { ...rendered, fetch: settingsFetch };
}

afterEach(() => vi.unstubAllGlobals());

describe('SettingsCard', () => {
  it('saves a toggle with PUT /api/user and shows it before the answer', async () => {
    let answer!: (res: Response) => void;
    const { fetch, client } = renderCard(() => new Promise<Response>((resolve) => (answer = resolve)));
    fireEvent.click(screen.getByRole('switch', { name: 'Censor trigger words' }));
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Censor trigger words' })).toHaveAttribute(
        'aria-checked',
        'true',
      ),
    );
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/user');
    expect(init?.method).toBe('PUT');
    expect(JSON.parse(init?.body as string)).toEqual({ censorTriggers: true });
    answer(new Response(JSON.stringify({ user: { ...user, censorTriggers: true } }), { status: 200 }));
    await waitFor(() => expect(client.isMutating()).toBe(0));
    expect((client.getQueryData(currentUserQuery.queryKey) as SelfUser).censorTriggers).toBe(true);
  });

  it('reverts the toggle and shows an error toast when saving fails', async () => {
    let answer!: (res: Response) => void;
    renderCard(() => new Promise<Response>((resolve) => (answer = resolve)));
    fireEvent.click(screen.getByRole('switch', { name: 'Hide locked files' }));
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Hide locked files' })).toHaveAttribute(
        'aria-checked',
        'true',
      ),
    );
    await waitFor(() => expect(answer).toBeDefined());
    answer(new Response(JSON.stringify({ error: 'Internal error.' }), { status: 500 }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to save settings.');
    expect(screen.getByRole('switch', { name: 'Hide locked files' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    act(() => screen.getByRole('button', { name: 'Dismiss' }).click());
  });

  it('saves a slider only when it is released', async () => {
    const { fetch } = renderCard(() =>
      json(200, { user: { ...user, lovenseSettings: { maxVibration: 80, vibrationOffset: 0 } } }),
    );
    const slider = screen.getByRole('slider', { name: 'Max vibration' });
    fireEvent.change(slider, { target: { value: '70' } });
    fireEvent.change(slider, { target: { value: '80' } });
    expect(screen.getByText('80%')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.pointerUp(slider);
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(JSON.parse(fetch.mock.calls[0][1]?.body as string)).toEqual({
      lovenseSettings: { maxVibration: 80 },
    });
  });

  it('keeps the offset slider to the spec range and step', () => {
    renderCard(() => json(200, { user }));
    const offset = screen.getByRole('slider', { name: 'Vibration offset' });
    expect(offset).toHaveAttribute('min', '-1000');
    expect(offset).toHaveAttribute('max', '1000');
    expect(offset).toHaveAttribute('step', '25');
    const max = screen.getByRole('slider', { name: 'Max vibration' });
    expect(max).toHaveAttribute('min', '1');
    expect(max).toHaveAttribute('max', '100');
  });

  it('connects toys with Lovense by default, or with Intiface Central once chosen, remembered here', async () => {
    renderCard(() => json(200, { user }));
    expect(screen.getByRole('radio', { name: 'Lovense Remote' })).toBeChecked();
    expect(screen.queryByRole('textbox', { name: 'Intiface Central address' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('radio', { name: /Intiface Central/ }));
    expect(screen.getByRole('textbox', { name: 'Intiface Central address' })).toHaveValue(
      'ws://127.0.0.1:12345',
    );
    expect(localStorage.getItem('hapticsProvider')).toBe('intiface');
    fireEvent.click(screen.getByRole('button', { name: 'How to connect a toy' }));
    const help = screen.getByRole('dialog', { name: 'How to connect a toy' });
    expect(within(help).getAllByRole('listitem')).toHaveLength(4);
    expect(help).toHaveTextContent('Get Intiface Central.');
    fireEvent.click(within(help).getByRole('button', { name: 'Close' }));

    cleanup();
    renderCard(() => json(200, { user }));
    expect(screen.getByRole('radio', { name: /Intiface Central/ })).toBeChecked();
    fireEvent.click(screen.getByRole('radio', { name: 'Lovense Remote' }));
    expect(localStorage.getItem('hapticsProvider')).toBe('lovense');
    expect(screen.queryByRole('textbox', { name: 'Intiface Central address' })).not.toBeInTheDocument();
  });

  it("asks Lovense for the account's toys only on a site that has Lovense's API", async () => {
    localStorage.setItem('hapticsProvider', 'lovense');
    const configured = renderWithProviders(<Card />, {
      user,
      fetchImpl: () => json(200, { connected: false, toys: [] }),
    });
    expect(await screen.findByRole('button', { name: 'Connect Lovense' })).toBeInTheDocument();
    expect(configured.fetch.mock.calls.map(([url]) => url)).toEqual(['/api/lovense/toys']);

    cleanup();
    const unconfigured = renderWithProviders(<Card lovenseAvailable={false} />, {
      user,
      fetchImpl: () => json(503, { error: 'Lovense is not configured on this server.' }),
    });
    // Intiface Central is the only way offered, though Lovense was the choice remembered here.
    expect(screen.queryByRole('radio', { name: 'Lovense Remote' })).not.toBeInTheDocument();
    expect(screen.getByText(/Lovense Remote is not set up on this site/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Intiface Central address' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'How to connect a toy' }));
    expect(screen.getByRole('dialog', { name: 'How to connect a toy' })).toHaveTextContent(
      'Get Intiface Central.',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unconfigured.fetch).not.toHaveBeenCalled();
    expect(localStorage.getItem('hapticsProvider')).toBe('lovense');
  });
});
