import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, BadRequest } from './errors.ts';

const MULTIPART = 'multipart/form-data';

/** Parts a small form may have (fields and files): a form of the app has a handful. */
const MAX_PARTS = 100;

/** Reads the form a route of a small-form context received, as a FormData. */
export type SmallFormReader = (req: FastifyRequest, field: string, message: string) => Promise<FormData>;

/**
 * For a context whose routes take small multipart forms (avatars, attachments): @fastify/multipart
 * parses them, the parts' content read whole up to `limit` bytes in all, refused with `tooLarge()`
 * past it. The chunked uploads stream theirs instead (modules/uploads), so this parser lives only in
 * the contexts that ask for it. The reader answers 400 naming `field` with `message` for a body that
 * is not such a form.
 */
export async function acceptSmallForms(
  scope: FastifyInstance,
  limit: number,
  tooLarge: () => AppError,
): Promise<SmallFormReader> {
  if (scope.hasContentTypeParser(MULTIPART)) scope.removeContentTypeParser(MULTIPART);
  await scope.register(multipart, {
    limits: { fileSize: limit, fieldSize: limit, parts: MAX_PARTS },
    throwFileSizeLimit: true,
  });

  return async (req, field, message) => {
    if (!req.isMultipart()) throw new BadRequest(field, message);
    const form = new FormData();
    let size = 0;
    const count = (bytes: number) => {
      size += bytes;
      if (size > limit) throw tooLarge();
    };
    try {
      for await (const part of req.parts()) {
        if (part.type === 'file') {
          const bytes = await part.toBuffer();
          count(bytes.length);
          form.append(
            part.fieldname,
            new File([new Uint8Array(bytes)], part.filename, { type: part.mimetype }),
          );
        } else {
          if (part.valueTruncated) throw tooLarge();
          const value = String(part.value);
          count(Buffer.byteLength(value));
          form.append(part.fieldname, value);
        }
      }
    } catch (err) {
      // Past a limit: ours (count) or the library's (file size, parts), both 413.
      if (err instanceof AppError) throw err;
      if ((err as { statusCode?: number }).statusCode === 413) throw tooLarge();
      throw new BadRequest(field, message);
    }
    return form;
  };
}
