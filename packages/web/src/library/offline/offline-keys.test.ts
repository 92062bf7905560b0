import { describe, expect, it } from 'vitest';
import { offlineKey, rangeAnswer } from './offline-keys.ts';

const key = (url: string) => offlineKey(new URL(url, 'https://mesmer.example'));

describe('offlineKey', () => {
  it('keys media by its path alone: signatures and session tokens change, the file does not', () => {
    expect(key('/media/audio/ab12.mp3?file=3&exp=1700000000&sig=00ff&session=tok')).toBe(
      '/media/audio/ab12.mp3',
    );
    expect(key('/media/haptics/ab12.json?file=3&exp=1&sig=aa')).toBe('/media/haptics/ab12.json');
  });

  it('keys an API answer by path and query, in sorted order', () => {
    expect(key('/api/series?uuid=u-1&includePlaylists=true')).toBe(
      '/api/series?includePlaylists=true&uuid=u-1',
    );
    expect(key('/api/series?includePlaylists=true&uuid=u-1')).toBe(
      '/api/series?includePlaylists=true&uuid=u-1',
    );
    expect(key('/api/files/waveform?id=7')).toBe('/api/files/waveform?id=7');
    expect(key('/api/health')).toBe('/api/health');
  });

  it('keeps nothing else', () => {
    expect(key('/playlist/abc')).toBeNull();
    expect(key('/assets/index.js')).toBeNull();
    expect(key('/avatars/1.png')).toBeNull();
  });
});

describe('rangeAnswer', () => {
  const kept = () =>
    new Response(new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), {
      headers: { 'Content-Type': 'audio/mpeg', 'Content-Length': '10' },
    });
  const bytes = async (res: Response) => [...new Uint8Array(await res.arrayBuffer())];

  it('answers the whole file without a Range header', async () => {
    const res = await rangeAnswer(kept(), null);
    expect(res.status).toBe(200);
    expect(await bytes(res)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('answers bytes=0- (what an audio element asks first) with 206 and the whole length', async () => {
    const res = await rangeAnswer(kept(), 'bytes=0-');
    expect(res.status).toBe(206);
    expect(res.headers.get('Content-Range')).toBe('bytes 0-9/10');
    expect(res.headers.get('Content-Length')).toBe('10');
    expect(res.headers.get('Content-Type')).toBe('audio/mpeg');
    expect(res.headers.get('Accept-Ranges')).toBe('bytes');
    expect(await bytes(res)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('answers a closed range, a range past the end (cut), and a suffix range', async () => {
    const middle = await rangeAnswer(kept(), 'bytes=2-4');
    expect(middle.headers.get('Content-Range')).toBe('bytes 2-4/10');
    expect(await bytes(middle)).toEqual([2, 3, 4]);

    const cut = await rangeAnswer(kept(), 'bytes=8-100');
    expect(cut.headers.get('Content-Range')).toBe('bytes 8-9/10');
    expect(await bytes(cut)).toEqual([8, 9]);

    const suffix = await rangeAnswer(kept(), 'bytes=-3');
    expect(suffix.headers.get('Content-Range')).toBe('bytes 7-9/10');
    expect(await bytes(suffix)).toEqual([7, 8, 9]);
  });

  it('answers 416 for a range that starts past the end', async () => {
    const res = await rangeAnswer(kept(), 'bytes=10-');
    expect(res.status).toBe(416);
    expect(res.headers.get('Content-Range')).toBe('bytes */10');
  });

  it('answers the whole file for a range it does not serve (several ranges, other units)', async () => {
    expect((await rangeAnswer(kept(), 'bytes=0-1,4-5')).status).toBe(200);
    expect((await rangeAnswer(kept(), 'items=0-1')).status).toBe(200);
  });
});
