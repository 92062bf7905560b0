import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { audioFile, json, playlist } from '../../test/testing.tsx';
import { ToastViewport } from '../../ui/index.ts';
import { KeepOffline } from './KeepOffline.tsx';
import { offlineStore } from './keeper.ts';
import { OFFLINE_INDEX_KEY, readIndex } from './offline-index.ts';

/** Cache Storage's one offline cache, in memory; `quota` bytes of media fit. */
class FakeCache {
  entries = new Map<string, Response>();
  constructor(private quota = Number.POSITIVE_INFINITY) {}
  private url = (key: RequestInfo | URL) =>
    new URL(key instanceof Request ? key.url : String(key), location.origin).href;
  async match(key: RequestInfo | URL) {
    return this.entries.get(this.url(key))?.clone();
  }
  async put(key: RequestInfo | URL, response: Response) {
    const body = await response.arrayBuffer();
    const used = [...this.entries.values()].reduce(
      (n, r) => n + Number(r.headers.get('Content-Length') ?? 0),
      0,
    );
    if (used + body.byteLength > this.quota) throw new DOMException('Quota exceeded.', 'QuotaExceededError');
    const headers = new Headers(response.headers);
    headers.set('Content-Length', String(body.byteLength));
    this.entries.set(this.url(key), new Response(body, { headers }));
  }
  async delete(key: RequestInfo | URL) {
    return this.entries.delete(this.url(key));
  }
  async keys() {
    return [...this.entries.keys()].map((url) => new Request(url));
  }
  paths() {
    return [...this.entries.keys()].map((url) => url.slice(location.origin.length)).sort();
  }
}

const files = [
  audioFile({
    id: 1,
    audioURL: '/media/audio/one.mp3?file=1&exp=9&sig=aa',
    hapticsURL: '/media/haptics/one.json?file=1&exp=9&sig=bb',
  }),
  audioFile({ id: 2, audioURL: '/media/audio/two.mp3?file=2&exp=9&sig=cc' }),
  audioFile({ id: 3, audioURL: null, isLocked: true }),
];
const kept = playlist({
  uuid: '00000000-0000-4000-8000-000000000042',
  name: 'Night Drift',
  files: files.map((f) => ({ ...f, disabled: false })),
});
const target = { kind: 'playlist' as const, uuid: kept.uuid, name: kept.name };
const SIZES: Record<string, number> = {
  '/media/audio/one.mp3': 3_000_000,
  '/media/haptics/one.json': 2_000,
  '/media/audio/two.mp3': 1_500_000,
};

let cache: FakeCache;
let requests: string[];
/** Answers a media GET; the default sends the whole file. */
let mediaBody: (path: string, signal: AbortSignal | undefined) => Response | Promise<Response>;
const postMessage = vi.fn();

function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = new URL(String(input), location.origin);
  const method = init?.method ?? 'GET';
  requests.push(`${method} ${url.pathname}${url.search}`);
  if (url.pathname === '/api/playlists') return json(200, { playlists: [kept], totalItems: 1 });
  if (url.pathname === '/api/files/waveform') {
    return json(200, { peaks: [0.5], loudness: -16, duration: 60_000 });
  }
  const size = SIZES[url.pathname];
  if (size === undefined) return json(404, { error: 'Not found.' });
  if (method === 'HEAD')
    return Promise.resolve(new Response(null, { headers: { 'Content-Length': String(size) } }));
  return Promise.resolve(mediaBody(url.pathname, init?.signal ?? undefined));
}

beforeEach(() => {
  cache = new FakeCache();
  requests = [];
  mediaBody = (path) =>
    new Response(new Uint8Array(SIZES[path] ?? 0), {
      headers: { 'Content-Type': 'audio/mpeg', 'Content-Length': String(SIZES[path]) },
    });
  vi.stubGlobal('caches', { open: async () => cache });
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      controller: {},
      ready: Promise.resolve({ active: { postMessage } }),
      addEventListener() {},
      removeEventListener() {},
    },
  });
  offlineStore.setState({ index: { items: [] }, downloads: {}, failures: {} });
});

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
  postMessage.mockReset();
});

function show(pageFiles = kept.files) {
  return render(
    <>
      <KeepOffline target={target} files={pageFiles} />
      <ToastViewport />
    </>,
  );
}

async function askToKeep() {
  fireEvent.click(screen.getByRole('button', { name: 'Keep offline' }));
  return screen.findByRole('dialog', { name: 'Keep “Night Drift” offline?' });
}

describe('KeepOffline', () => {
  it('shows the size first, keeps the files and answers, and Remove frees them', async () => {
    show();
    const dialog = await askToKeep();
    expect(dialog).toHaveTextContent('2 files · 4.5 MB will be stored in this browser');
    expect(dialog).toHaveTextContent('1 locked file is left out.');
    // Nothing is stored before the listener agrees.
    expect(cache.paths()).toEqual([]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep offline' }));
    expect(await screen.findByText('Kept offline · 4.5 MB')).toBeInTheDocument();
    expect(cache.paths()).toEqual([
      '/api/files/waveform?id=1',
      '/api/files/waveform?id=2',
      `/api/playlists?uuid=${kept.uuid}`,
      '/media/audio/one.mp3',
      '/media/audio/two.mp3',
      '/media/haptics/one.json',
    ]);
    // Audio is fetched with offline=1 (the server records the whole copy for offline credit); cues as they are.
    expect(requests).toContain('GET /media/audio/one.mp3?file=1&exp=9&sig=aa&offline=1');
    expect(requests).toContain('GET /media/haptics/one.json?file=1&exp=9&sig=bb');
    expect(readIndex(localStorage).items).toEqual([
      expect.objectContaining({
        kind: 'playlist',
        uuid: kept.uuid,
        bytes: 4_502_000,
        media: ['/media/audio/one.mp3', '/media/haptics/one.json', '/media/audio/two.mp3'],
      }),
    ]);
    expect(postMessage).toHaveBeenCalledWith('mesmer-offline-changed');

    fireEvent.click(screen.getByRole('button', { name: 'Remove “Night Drift” from this device' }));
    expect(await screen.findByRole('button', { name: 'Keep offline' })).toBeInTheDocument();
    expect(cache.paths()).toEqual([]);
    expect(readIndex(localStorage).items).toEqual([]);
  });

  it('cancelling at the question stores nothing', async () => {
    show();
    const dialog = await askToKeep();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(requests.filter((r) => r.startsWith('GET /media/'))).toEqual([]);
    expect(cache.paths()).toEqual([]);
  });

  it('a download that fails half way leaves nothing kept and says why', async () => {
    mediaBody = (path) =>
      path === '/media/audio/two.mp3'
        ? new Response(JSON.stringify({ error: 'This link has expired or is not valid.' }), { status: 403 })
        : new Response(new Uint8Array(SIZES[path] ?? 0), {
            headers: { 'Content-Length': String(SIZES[path]) },
          });
    show();
    fireEvent.click(within(await askToKeep()).getByRole('button', { name: 'Keep offline' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'A file could not be downloaded (403). Reload the page and try again. Nothing was kept.',
    );
    expect(cache.paths()).toEqual([]);
    expect(localStorage.getItem(OFFLINE_INDEX_KEY)).toBeNull();
    expect(screen.getByRole('button', { name: 'Keep offline' })).toBeInTheDocument();

    fireEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a full storage says so with the size, and leaves nothing kept', async () => {
    cache = new FakeCache(3_500_000);
    show();
    fireEvent.click(within(await askToKeep()).getByRole('button', { name: 'Keep offline' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'There is not enough storage space on this device for 4.5 MB. Remove other kept playlists or free up space, then try again. Nothing was kept.',
    );
    expect(cache.paths()).toEqual([]);
    expect(readIndex(localStorage).items).toEqual([]);
  });

  it('shows the progress while downloading, and Cancel stops it and clears what came', async () => {
    let sendRest: (() => void) | undefined;
    mediaBody = (path, signal) => {
      const size = SIZES[path] ?? 0;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(1_000_000));
          sendRest = () => {
            controller.enqueue(new Uint8Array(size - 1_000_000));
            controller.close();
          };
          signal?.addEventListener('abort', () =>
            controller.error(new DOMException('Aborted.', 'AbortError')),
          );
        },
      });
      return new Response(body, { headers: { 'Content-Length': String(size) } });
    };
    show();
    fireEvent.click(within(await askToKeep()).getByRole('button', { name: 'Keep offline' }));
    const bar = await screen.findByRole('progressbar', { name: 'Keeping offline… 1.0 MB of 4.5 MB' });
    expect(bar).toHaveAttribute('aria-valuenow', '1000000');
    expect(bar).toHaveAttribute('aria-valuemax', '4502000');

    // The first file arrives whole, then the listener cancels during the second.
    await act(async () => sendRest?.());
    expect(
      await screen.findByRole('progressbar', { name: /^Keeping offline… 4\.0 MB of 4\.5 MB/ }),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('button', { name: 'Keep offline' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(cache.paths()).toEqual([]);
    expect(readIndex(localStorage).items).toEqual([]);
  });

  it('offers Update when the playlist has files the kept copy lacks', async () => {
    show();
    fireEvent.click(within(await askToKeep()).getByRole('button', { name: 'Keep offline' }));
    await screen.findByText('Kept offline · 4.5 MB');
    expect(screen.queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();

    const added = audioFile({ id: 4, audioURL: '/media/audio/four.mp3?file=4&exp=9&sig=dd' });
    show([...kept.files, { ...added, disabled: false }]);
    expect(screen.getByRole('button', { name: 'Update' })).toBeInTheDocument();
    expect(screen.getByText('Changed since it was kept: Update keeps the new files.')).toBeInTheDocument();
  });

  it('shows nothing where no service worker could play kept files', () => {
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { controller: null, addEventListener() {}, removeEventListener() {} },
    });
    const { container } = render(<KeepOffline target={target} files={kept.files} />);
    expect(container).toBeEmptyDOMElement();
  });
});
