import type { AudioFile } from '@mesmer/shared/api/files';
import type { SelfUser } from '@mesmer/shared/api/users';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentUserQuery } from '../api/users.ts';
import { audioFile, selfUser } from '../test/testing.tsx';
import { ToastViewport } from '../ui/index.ts';
import { ScriptView } from './ScriptView.tsx';

afterEach(() => {
  // Toasts outlive a render: dismiss them so the next test sees only its own.
  for (const button of screen.queryAllByRole('button', { name: 'Dismiss' })) fireEvent.click(button);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const SCRIPT_URL = '/media/scripts/00000000-0000-4000-8000-000000000001.txt?file=1&exp=1&sig=ab';
const SCRIPT = 'Drifting Down\n\nLet your eyes close... ten... nine...\n';

/** The media route for the script: its text, or `status` with the route's JSON error. */
function mediaFetch(status = 200) {
  return vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) => {
    expect(String(input)).toBe(SCRIPT_URL);
    return status === 200
      ? new Response(SCRIPT, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
      : new Response(JSON.stringify({ error: 'This link has expired or is not valid.' }), { status });
  });
}

function renderScript(
  file: AudioFile,
  fetchImpl: ReturnType<typeof mediaFetch>,
  user: SelfUser | null = null,
) {
  vi.stubGlobal('fetch', fetchImpl);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(currentUserQuery.queryKey, user);
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <div data-testid="host">
          <ScriptView file={file} heading="h2" />
        </div>
        <ToastViewport />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const scripted = () => audioFile({ name: 'Drifting Down', scriptURL: SCRIPT_URL });

describe('ScriptView', () => {
  it("loads the file's script from its scriptURL into a labelled, focusable region", async () => {
    const fetchImpl = mediaFetch();
    renderScript(scripted(), fetchImpl);
    const region = await screen.findByRole('region', { name: 'Script of Drifting Down' });
    expect(region.textContent).toBe(SCRIPT);
    expect(region.tabIndex).toBe(0);
    expect(screen.getByRole('heading', { name: 'Script', level: 2 })).toBeVisible();
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(fetchImpl.mock.calls[0]?.[1]).toMatchObject({ credentials: 'same-origin' });
  });

  it('copies the script with the Clipboard API and says so', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderScript(scripted(), mediaFetch());
    fireEvent.click(await screen.findByRole('button', { name: 'Copy script' }));
    expect(await screen.findByText('Copied')).toBeVisible();
    expect(writeText).toHaveBeenCalledWith(SCRIPT);
  });

  it('without a usable clipboard, selects the text and copies it with the copy command', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    const execCommand = vi.fn().mockReturnValue(true);
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    try {
      renderScript(scripted(), mediaFetch());
      const region = await screen.findByRole('region', { name: 'Script of Drifting Down' });
      fireEvent.click(screen.getByRole('button', { name: 'Copy script' }));
      expect(await screen.findByText('Copied')).toBeVisible();
      expect(execCommand).toHaveBeenCalledWith('copy');
      expect(window.getSelection()?.toString()).toBe(region.textContent);
    } finally {
      Reflect.deleteProperty(document, 'execCommand');
    }
  });

  it('when even the copy command is refused, leaves the script selected and asks for the keyboard', async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: vi.fn().mockRejectedValue(new DOMException('denied', 'NotAllowedError')) },
    });
    Object.defineProperty(document, 'execCommand', { value: () => false, configurable: true });
    try {
      renderScript(scripted(), mediaFetch());
      fireEvent.click(await screen.findByRole('button', { name: 'Copy script' }));
      expect(await screen.findByText('Copy the selected script')).toBeVisible();
      expect(window.getSelection()?.toString()).toBe(SCRIPT);
    } finally {
      Reflect.deleteProperty(document, 'execCommand');
    }
  });

  it('shows nothing when the script fails to load', async () => {
    const fetchImpl = mediaFetch(403);
    renderScript(scripted(), fetchImpl);
    await waitFor(() => expect(fetchImpl).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.getByTestId('host')).toBeEmptyDOMElement());
  });

  it('shows nothing and fetches nothing for a file without a script (a locked one has none)', () => {
    const fetchImpl = mediaFetch();
    renderScript(audioFile({ scriptURL: null, isLocked: true, audioURL: null }), fetchImpl);
    expect(screen.getByTestId('host')).toBeEmptyDOMElement();
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('censors trigger names in the script for a viewer who censors triggers', async () => {
    const file = audioFile({
      name: 'Sleep Now',
      scriptURL: SCRIPT_URL,
      triggers: [{ id: 3, uuid: '00000000-0000-4000-9000-000000000003', name: 'ten', trains: true }],
    });
    renderScript(file, mediaFetch(), selfUser({ censorTriggers: true }));
    const region = await screen.findByRole('region', { name: /^Script of/ });
    expect(region.textContent).toContain('Let your eyes close...');
    expect(region.textContent).not.toContain('ten...');
  });
});
