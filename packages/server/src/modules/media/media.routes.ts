import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { mediaUrlSigner } from '../../platform/signed-url.ts';
import { createStorage, isStorageKey } from '../../platform/storage.ts';
import { createFilesService } from '../files/files.service.ts';
import { createListeningService } from '../listening/listening.service.ts';
import { parseRange } from './range.ts';

/** Folders of media storage served here: audio, haptic cue lists (JSON) and scripts (text). */
export const MEDIA_KINDS = ['audio', 'haptics', 'scripts'] as const;

const CONTENT_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  wav: 'audio/wav',
  flac: 'audio/flac',
  json: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

const INVALID_LINK = 'This link has expired or is not valid.';

function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/**
 * Passes `source` through, counting the bytes sent on; `done` gets the count once, when the
 * body has been read to its end (before the response ends) or the client went away.
 */
function countSent(
  source: Readable,
  done: (bytes: number) => Promise<void>,
  log: FastifyBaseLogger,
): Readable {
  let bytes = 0;
  let reported = false;
  const report = () => {
    if (reported) return Promise.resolve();
    reported = true;
    return done(bytes).catch((err: unknown) => log.error({ err }, 'recording served audio failed'));
  };
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(null, chunk);
    },
    flush(callback) {
      void report().then(() => callback());
    },
  });
  counter.on('close', () => void report());
  pipeline(source, counter).catch(() => undefined);
  return counter;
}

/**
 * Root-level routes (not under /api): signed media streaming with HTTP Range, and
 * /download/{uuid} redirecting to a file's signed audio URL.
 */
export async function mediaRoutes(app: FastifyInstance, ctx: AppContext) {
  const storage = createStorage(ctx.config);
  const signer = mediaUrlSigner(ctx.config);
  const files = createFilesService(ctx);
  const listening = createListeningService(ctx);
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/media/:kind/:key',
    {
      schema: {
        tags: ['media'],
        description:
          'Streams a stored audio, haptics (JSON cue list) or script file. The link must carry a valid, unexpired ' +
          'signature (`file`, `exp`, `sig`), as handed out in file answers, and the viewer (by their session cookie) ' +
          'must still be allowed to play that file at the time of the request; otherwise 403. With `session` ' +
          '(a listening-session token from POST /api/session), the audio bytes sent are recorded for that session: ' +
          'they bound the points it can earn. Supports single HTTP ranges (206, 416) and conditional requests ' +
          '(ETag, Last-Modified, 304).',
        params: z.object({ kind: z.enum(MEDIA_KINDS), key: z.string() }),
        querystring: z.object({
          file: z.string().optional(),
          exp: z.string().optional(),
          sig: z.string().optional(),
          session: z.string().min(1).max(200).optional(),
        }),
      },
    },
    async (req, reply) => {
      const { kind, key } = req.params;
      const storageKey = `${kind}/${key}`;
      const { file, exp, sig, session } = req.query;
      if (!signer.verify({ urlPath: `/media/${storageKey}`, fileId: file }, exp, sig, ctx.clock.now())) {
        return reply.code(403).send({ error: INVALID_LINK });
      }
      // A link outlives a sign-out or a lapsed membership; the access it was signed for does not.
      const fileId = Number(file);
      if (!(await files.mayPlay(req.user, fileId))) return reply.code(403).send({ error: INVALID_LINK });
      const stored = isStorageKey(storageKey) ? await storage.stat(storageKey) : null;
      if (!stored) return reply.code(404).send({ error: 'Not found.' });

      const etag = `"${stored.size.toString(16)}-${Math.floor(stored.modified.getTime()).toString(16)}"`;
      reply
        .header('accept-ranges', 'bytes')
        .header('etag', etag)
        .header('last-modified', stored.modified.toUTCString())
        .header('cache-control', 'private, max-age=3600')
        .type(contentTypeOf(key));
      const ifNoneMatch = req.headers['if-none-match'];
      const ifModifiedSince = req.headers['if-modified-since'];
      const notModified = ifNoneMatch
        ? ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')
        : ifModifiedSince !== undefined &&
          Math.floor(stored.modified.getTime() / 1000) <= Math.floor(Date.parse(ifModifiedSince) / 1000);
      if (notModified) return reply.code(304).send(null);

      const range = parseRange(req.headers.range, stored.size);
      if (range === 'unsatisfiable') {
        return reply
          .code(416)
          .header('content-range', `bytes */${stored.size}`)
          .type('application/json; charset=utf-8')
          .send({ error: 'Range not satisfiable.' });
      }
      const body = storage.createReadStream(storageKey, range ?? undefined);
      const start = range?.start ?? 0;
      // Only a GET sends the body (HEAD reads and drops it), and only audio earns listening time.
      const sent =
        session && kind === 'audio' && req.method === 'GET'
          ? countSent(
              body,
              async (bytes) => {
                if (bytes === 0) return;
                const served = {
                  sessionToken: session,
                  fileId,
                  audioSize: stored.size,
                  start,
                  end: start + bytes - 1,
                };
                await listening.recordServed(req.user, served);
              },
              req.log,
            )
          : body;
      if (range) {
        return reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${stored.size}`)
          .header('content-length', range.end - range.start + 1)
          .send(sent);
      }
      return reply.header('content-length', stored.size).send(sent);
    },
  );

  api.get(
    '/download/:uuid',
    {
      schema: {
        tags: ['media'],
        description:
          "Redirects (302) to the file's signed audio URL when the viewer may play it, else to /404. " +
          'The link plays for as long as the viewer may play the file (see GET /media).',
        params: z.object({ uuid: z.string() }),
      },
    },
    async (req, reply) => reply.redirect((await files.playableAudioUrl(req.user, req.params.uuid)) ?? '/404'),
  );
}
