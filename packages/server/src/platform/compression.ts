import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Smaller answers are sent as they are: compressing them saves less than it costs. */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /^(application\/json|text\/html)/;

/** The best encoding the client accepts (q > 0): br, then gzip, else none. */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/**
 * Compresses large JSON answers and the app's page. Static assets are
 * compressed at build time instead (their .br/.gz files), and media is never compressed.
 */
export function registerCompression(app: FastifyInstance) {
  app.addHook('onSend', async (req, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (reply.hasHeader('content-encoding')) return payload;
    if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    const vary = reply.getHeader('vary');
    reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    // Asked first: measuring a large answer's bytes costs more than reading one header.
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (!encoding) return payload;
    const size = Buffer.byteLength(payload);
    if (size < MIN_BYTES) return payload;
    const body =
      encoding === 'br'
        ? await brotli(payload, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
            },
          })
        : await gzip(payload, { level: 6 });
    reply.header('content-encoding', encoding);
    reply.header('content-length', body.length);
    return body;
  });
}
