import { MAX_JSON_DEPTH, nestsDeeperThan } from '@mesmer/shared/domain/attachments';
import type { FastifyInstance } from 'fastify';
import { BadRequest } from './errors.ts';

/**
 * Fastify's JSON body parser behind a nesting check: JSON.parse of a body of only brackets takes
 * about a second per megabyte of event loop, so a body nested deeper than any request of the
 * contract (MAX_JSON_DEPTH) is refused with a 400 naming `body` after one linear scan.
 */
export function boundJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (nestsDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(new BadRequest('body', `nests lists or objects deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
      return;
    }
    parse(req, body as string, done);
  });
}
