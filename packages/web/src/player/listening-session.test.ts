import { afterEach, describe, expect, it, vi } from 'vitest';
import { createListeningTracker, sessionCalls, withSession } from './listening-session.ts';

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
