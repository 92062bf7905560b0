// Needs an isolated module graph: the app's own player, which other test files load, would also hear the
// 'online' events these tests fire and send the same queued plays.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createListeningTracker, sessionCalls, withSession } from './listening-session.ts';

// Each test's trackers stop listening for the network after it, so they cannot answer the next test's events.
beforeEach(() => {
  vi.spyOn(window, 'addEventListener');
});
afterEach(() => {
  for (const [type, listener] of vi.mocked(window.addEventListener).mock.calls) {
    window.removeEventListener(type, listener);
  }
  vi.restoreAllMocks();
});

describe('withSession', () => {
  it('adds the session token to the signed audio URL', () => {
    expect(withSession('/media/audio/a.wav?file=3&exp=1&sig=ab', 'tok-1')).toBe(
      '/media/audio/a.wav?file=3&exp=1&sig=ab&session=tok-1',
    );
    expect(withSession('/media/audio/a.wav', 'a b')).toBe('/media/audio/a.wav?session=a%20b');
    expect(withSession('/media/audio/a.wav?file=3', null)).toBe('/media/audio/a.wav?file=3');
  });
});

describe('createListeningTracker', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function stubSessionCalls() {
    const bodies: unknown[] = [];
    let next = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        const body = JSON.parse(String(init.body));
        bodies.push(body);
        const answer = body.sessionToken
          ? { token: body.sessionToken, points: 0, totalPoints: 0, streak: 0 }
          : { token: `tok-${++next}` };
        return new Response(JSON.stringify(answer), { status: 200 });
      }),
    );
    return bodies;
  }

  it('keeps one session per loaded file: a URL refresh reuses it, another file ends it first', async () => {
    const bodies = stubSessionCalls();
    const tracker = createListeningTracker(() => undefined);
    expect(tracker.isOpen()).toBe(false);
    expect(await tracker.open(7)).toBe('tok-1');
    expect(await tracker.open(7)).toBe('tok-1');
    expect(tracker.isOpen()).toBe(true);
    expect(await tracker.open(8)).toBe('tok-2');
    await vi.waitFor(() => expect(bodies).toHaveLength(3));
    expect(bodies[1]).toMatchObject({ timezone: expect.any(String) });
    expect(bodies.find((b) => (b as { sessionToken?: string }).sessionToken)).toMatchObject({
      sessionToken: 'tok-1',
      fileId: 7,
    });
    await tracker.finish();
    expect(tracker.isOpen()).toBe(false);
    expect(bodies.at(-1)).toMatchObject({ sessionToken: 'tok-2', fileId: 8 });
  });

  it('answers null when the session could not be started, so the track plays without one', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"error":"Too many requests."}', { status: 429 })),
    );
    const tracker = createListeningTracker(() => undefined);
    expect(await tracker.open(7)).toBeNull();
  });

  it('ends the session on page close with a keepalive POST /api/session that outlives the page', async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const body = { sessionToken: 'tok-9', fileId: 7, timezone: 'Europe/Berlin', listenedMs: 4000 };
    sessionCalls.endOnUnload(body);
    expect(fetchMock).toHaveBeenCalledWith('/api/session', {
      method: 'POST',
      keepalive: true,
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  });
});

describe('plays made offline', () => {
  const QUEUE_KEY = 'player.offlineListening';
  const noon = Date.parse('2026-06-01T12:00:00Z');
  let online = true;

  beforeEach(() => {
    online = true;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
    vi.useFakeTimers({ toFake: ['Date'], now: noon });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** A server that cannot be reached for session starts, and answers offline sends with `answer`. */
  function stubServer(answer: (body: { sessions: { fileId: number; startedAt: string }[] }) => Response) {
    const offlineBodies: unknown[] = [];
    const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
      if (url === '/api/session/offline') {
        const body = JSON.parse(String(init.body));
        offlineBodies.push(body);
        return answer(body);
      }
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchMock);
    return { offlineBodies, fetchMock };
  }

  const credited = (body: { sessions: { fileId: number; startedAt: string }[] }) =>
    new Response(
      JSON.stringify({
        sessions: body.sessions.map((s) => ({ ...s, status: 'credited', creditedMs: 60_000, points: 1 })),
        points: body.sessions.length,
        totalPoints: 40,
        streak: 3,
      }),
      { status: 200 },
    );

  /** Plays `seconds` of `fileId` with the network down and ends the track. */
  async function playOffline(
    tracker: ReturnType<typeof createListeningTracker>,
    fileId: number,
    seconds: number,
  ) {
    expect(await tracker.open(fileId)).toBeNull();
    for (let t = 0; t <= seconds; t++) {
      tracker.progress(t);
      vi.setSystemTime(Date.now() + 1000);
    }
    await tracker.finish();
  }

  const queue = () => JSON.parse(localStorage.getItem(QUEUE_KEY) ?? '[]');

  it('keeps the play when the session cannot start for want of a network, and sends it when the network is back', async () => {
    const { offlineBodies } = stubServer(credited);
    const ended = vi.fn();
    const tracker = createListeningTracker(ended);
    online = false;
    await playOffline(tracker, 7, 90);
    const kept = {
      fileId: 7,
      startedAt: '2026-06-01T12:00:00.000Z',
      endedAt: '2026-06-01T12:01:31.000Z',
      listenedMs: 90_000,
    };
    expect(queue()).toEqual([kept]);
    expect(offlineBodies).toEqual([]);

    online = true;
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(localStorage.getItem(QUEUE_KEY)).toBeNull());
    expect(offlineBodies).toEqual([{ sessions: [kept] }]);
    expect(ended).toHaveBeenCalledWith({ token: '', points: 1, totalPoints: 40, streak: 3 });
  });

  it('keeps what could not be sent (no network, server trouble) and sends it at the next start', async () => {
    let answer: typeof credited = () => {
      throw new TypeError('Failed to fetch');
    };
    const { offlineBodies } = stubServer((body) => answer(body));
    online = false;
    const tracker = createListeningTracker(() => undefined);
    await playOffline(tracker, 7, 40);
    await playOffline(tracker, 8, 50);
    online = true;
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(offlineBodies).toHaveLength(1));
    await settled();
    answer = () => new Response('{"error":"Server error."}', { status: 503 });
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(offlineBodies).toHaveLength(2));
    await settled();
    expect(queue().map((s: { fileId: number }) => s.fileId)).toEqual([7, 8]);

    // The app starts again with a reachable server: the queue goes at once.
    answer = credited;
    const ended = vi.fn();
    createListeningTracker(ended);
    await vi.waitFor(() => expect(localStorage.getItem(QUEUE_KEY)).toBeNull());
    // The same plays, as kept.
    expect(offlineBodies.at(-1)).toEqual(offlineBodies[0]);
    expect(ended).toHaveBeenCalledWith({ token: '', points: 2, totalPoints: 40, streak: 3 });
  });

  it('removes what the server answered, refused too, and keeps plays queued meanwhile', async () => {
    let release: () => void = () => undefined;
    const { offlineBodies } = stubServer(
      (body) =>
        new Response(
          JSON.stringify({
            sessions: body.sessions.map((s) => ({
              ...s,
              status: 'refused',
              reason: 'no-offline-copy',
              creditedMs: 0,
              points: 0,
            })),
            points: 0,
            totalPoints: 5,
            streak: 0,
          }),
          { status: 200 },
        ),
    );
    const ended = vi.fn();
    online = false;
    const tracker = createListeningTracker(ended);
    await playOffline(tracker, 7, 40);
    // The answer waits until a second play was queued.
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fetchMock = vi.mocked(fetch);
    const answering = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementationOnce(async (url, init) => {
      await gate;
      return answering(url as string, init as RequestInit);
    });
    online = true;
    window.dispatchEvent(new Event('online'));
    online = false;
    await playOffline(tracker, 8, 40);
    release();
    await vi.waitFor(() => expect(offlineBodies).toHaveLength(2));
    await vi.waitFor(() => expect(localStorage.getItem(QUEUE_KEY)).toBeNull());
    expect(
      offlineBodies.map((b) => (b as { sessions: { fileId: number }[] }).sessions.map((s) => s.fileId)),
    ).toEqual([[7], [8]]);
    expect(ended).not.toHaveBeenCalled();
  });

  it('queues nothing when the server refused the start, or when nothing was heard', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"error":"Too many requests."}', { status: 429 })),
    );
    const tracker = createListeningTracker(() => undefined);
    await playOffline(tracker, 7, 40);
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();

    stubServer(credited);
    online = false;
    await playOffline(tracker, 8, 0);
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
  });

  it('ends an offline play on page close into the queue', async () => {
    stubServer(credited);
    online = false;
    const tracker = createListeningTracker(() => undefined);
    expect(await tracker.open(7)).toBeNull();
    tracker.progress(0);
    vi.setSystemTime(noon + 5000);
    tracker.progress(5);
    tracker.finishOnUnload();
    await vi.waitFor(() => expect(queue()).toMatchObject([{ fileId: 7, listenedMs: 5000 }]));
  });
});

/** Lets the calls under way finish. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
