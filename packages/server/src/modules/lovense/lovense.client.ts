import { AppError } from '../../platform/errors.ts';

/** Lovense did not answer, or answered something we cannot use. */
export class LovenseFailed extends AppError {
  constructor(message = 'Lovense did not answer. Please try again shortly.') {
    super(502, message);
  }
}

const TIMEOUT_MS = 5000;
/** The QR image is a few kilobytes; anything far bigger is not one. */
const MAX_IMAGE_BYTES = 256 * 1024;

/**
 * Lovense's Standard API, called from the server (the developer token is secret): pairing QR codes
 * and commands through Lovense's server (integrations.md, Lovense).
 */
export function createLovenseClient(settings: { developerToken: string; apiUrl: string }) {
  async function post(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    let res: Response;
    try {
      res = await fetch(`${settings.apiUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ token: settings.developerToken, ...body }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      throw new LovenseFailed();
    }
    const data = await res.json().catch(() => null);
    if (!res.ok || !data || typeof data !== 'object') throw new LovenseFailed();
    return data as Record<string, unknown>;
  }

  return {
    /** A QR code bound to `uid` and our secret `utoken`: its image URL and its text code. */
    async qrCode(input: {
      uid: string;
      uname: string;
      utoken: string;
    }): Promise<{ qr: string; code: string }> {
      const answer = await post('/api/lan/getQrCode', { ...input, v: 2 });
      const data = answer.data as { qr?: unknown; code?: unknown } | undefined;
      if (answer.code !== 0 || typeof data?.qr !== 'string' || typeof data.code !== 'string') {
        throw new LovenseFailed('Lovense did not give a QR code. Please try again shortly.');
      }
      return { qr: data.qr, code: data.code };
    },

    /** Sends `action` (e.g. Vibrate:10) to every toy of `uid`; answers Lovense's code (200 is done). */
    async command(input: { uid: string; action: string; timeSec: number }): Promise<number> {
      const answer = await post('/api/lan/v2/command', { ...input, command: 'Function', apiVer: 1 });
      return typeof answer.code === 'number' ? answer.code : Number(answer.code);
    },

    /**
     * The QR image as a data: URL, so the browser loads nothing from Lovense (the page's content
     * security policy allows images from this site and data: only).
     */
    async imageAsDataUrl(url: string): Promise<string> {
      if (!/^https?:\/\//i.test(url)) throw new LovenseFailed('Lovense gave no usable QR image.');
      let res: Response;
      try {
        res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      } catch {
        throw new LovenseFailed();
      }
      const type = res.headers.get('content-type')?.split(';')[0].trim().toLowerCase() ?? '';
      const length = Number(res.headers.get('content-length') ?? 0);
      if (!res.ok || !/^image\/(png|jpeg|gif|webp)$/.test(type) || length > MAX_IMAGE_BYTES) {
        await res.body?.cancel();
        throw new LovenseFailed('Lovense gave no usable QR image.');
      }
      const bytes = Buffer.from(await res.arrayBuffer());
      if (bytes.length > MAX_IMAGE_BYTES) throw new LovenseFailed('Lovense gave no usable QR image.');
      return `data:${type};base64,${bytes.toString('base64')}`;
    },
  };
}
