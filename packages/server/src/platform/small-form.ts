import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AppError, BadRequest } from './errors.ts';

const MULTIPART = 'multipart/form-data';

/**
 * For a context whose routes take small multipart forms (avatars, attachments): the body is read
 * whole, and refused with `tooLarge()` as soon as it passes `limit` bytes. The chunked uploads stream
 * theirs instead (modules/uploads), so this parser lives only in the contexts that ask for it.
 */
export function acceptSmallForms(scope: FastifyInstance, limit: number, tooLarge: () => AppError) {
  if (scope.hasContentTypeParser(MULTIPART)) scope.removeContentTypeParser(MULTIPART);
  scope.addContentTypeParser(MULTIPART, { bodyLimit: limit }, (_req, payload, done) => {
    const parts: Buffer[] = [];
    let size = 0;
    payload.on('data', (part: Buffer) => {
      size += part.length;
      if (size > limit) {
        payload.removeAllListeners('data');
        payload.resume();
        done(tooLarge(), undefined);
      } else parts.push(part);
    });
    payload.on('end', () => {
      if (size <= limit) done(null, Buffer.concat(parts));
    });
    payload.on('error', (err) => done(err, undefined));
  });
}

/** The form a route of such a context received; 400 naming `field` with `message` when it is not one. */
export async function readSmallForm(req: FastifyRequest, field: string, message: string): Promise<FormData> {
  if (!Buffer.isBuffer(req.body)) throw new BadRequest(field, message);
  try {
    return await new Response(new Uint8Array(req.body), {
      headers: { 'content-type': req.headers['content-type'] ?? '' },
    }).formData();
  } catch {
    throw new BadRequest(field, message);
  }
}
