import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createAccess, type SessionUser } from '../../platform/access.ts';
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

/** Ranges up to this long are read into memory and sent in one piece (a player asks 64 KiB-1 MiB). */
const IN_MEMORY_RANGE_BYTES = 1024 * 1024;

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
  const access = createAccess(ctx.db);
  const files = createFilesService(ctx);
  const listening = createListeningService(ctx);
  // Served audio is stored in batches (decision 033): what is still pending goes in when the app closes.
  // onClose hooks run last added first, so this runs before app.ts closes the database.
  app.addHook('onClose', () => listening.flushServed());

  /**
   * Whether the viewer may play the file now. Asked at every request of a playing file (each seek is
   * one), so the answer is kept by viewer and file while the library generation is unchanged
   * (decision 010): it reads only files and file_tiers, whose writes raise it, and the viewer's own
   * part (tiers, permission) is in the key, read with this request's session. Concurrent requests
   * share one read of the generation instead of a query each.
   */
  async function mayPlay(user: SessionUser | null, fileId: number): Promise<boolean> {
    const viewer = await access.viewer(user);
    const tiers = [...viewer.entitledTierIds].sort().join(',');
    const key = `media playable\n${fileId}\n${viewer.id ?? ''}\n${viewer.readsAllFiles}\n${tiers}`;
    const { value, keep } = await ctx.readCache.lookups.find<boolean>(key);
    if (value !== undefined) return value;
    // The request's viewer came with its session (access.viewer reads nothing more for it).
    const playable = await files.mayPlay(user, fileId);
    keep(playable);
    return playable;
  }
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
          'they bound the points it can earn. With `offline=1` (audio, signed in), a response that sends every byte ' +
          'of the file records that the user keeps an offline copy of it, so its offline plays can earn credit ' +
          '(POST /api/session/offline); such a request always gets the body (no 304). Supports single HTTP ranges ' +
          '(206, 416) and conditional requests (ETag, Last-Modified, 304).',
        params: z.object({ kind: z.enum(MEDIA_KINDS), key: z.string() }),
        querystring: z.object({
          file: z.string().optional(),
          exp: z.string().optional(),
          sig: z.string().optional(),
          session: z.string().min(1).max(200).optional(),
          offline: z.literal('1').optional(),
        }),
      },
    },
    async (req, reply) => {
      const { kind, key } = req.params;
      const storageKey = `${kind}/${key}`;
      const { file, exp, sig, session, offline } = req.query;
      if (!signer.verify({ urlPath: `/media/${storageKey}`, fileId: file }, exp, sig, ctx.clock.now())) {
        return reply.code(403).send({ error: INVALID_LINK });
      }
      // A link outlives a sign-out or a lapsed membership; the access it was signed for does not.
      const fileId = Number(file);
      // Both at once; the access answer decides first, so a refused viewer learns nothing of the store.
      const stat = isStorageKey(storageKey) ? storage.stat(storageKey) : Promise.resolve(null);
      stat.catch(() => undefined);
      if (!(await mayPlay(req.user, fileId))) return reply.code(403).send({ error: INVALID_LINK });
      const stored = await stat;
      if (!stored) return reply.code(404).send({ error: 'Not found.' });

      const etag = `"${stored.size.toString(16)}-${Math.floor(stored.modified.getTime()).toString(16)}"`;
      reply
        .header('accept-ranges', 'bytes')
        .header('etag', etag)
        .header('last-modified', stored.modified.toUTCString())
        .header('cache-control', 'private, max-age=3600')
        .type(contentTypeOf(key));
      // A download kept for offline listening must really be sent to be recorded: no 304 for it.
      const user = req.user;
      const keepsCopy = offline !== undefined && kind === 'audio' && req.method === 'GET' && user !== null;
      const ifNoneMatch = keepsCopy ? undefined : req.headers['if-none-match'];
      const ifModifiedSince = req.headers['if-modified-since'];
      const notModified = ifNoneMatch
        ? ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')
        : !keepsCopy &&
          ifModifiedSince !== undefined &&
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
      const start = range?.start ?? 0;
      // Only a GET sends the body (HEAD reads and drops it), and only audio earns listening time.
      const countsSession = session !== undefined && kind === 'audio' && req.method === 'GET';
      const recordSent = async (bytes: number) => {
        if (bytes === 0) return;
        if (countsSession) {
          const served = {
            sessionToken: session,
            fileId,
            audioSize: stored.size,
            start,
            end: start + bytes - 1,
          };
          listening.recordServed(req.user, served, req.log);
        }
        // Only a whole copy counts: every byte of the file went out in this response.
        if (keepsCopy && start === 0 && bytes === stored.size)
          await listening.recordOfflineCopy(user, fileId);
      };
      if (range) {
        reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${stored.size}`)
          .header('content-length', range.end - range.start + 1);
      } else reply.header('content-length', stored.size);

      // A player's seeks and chunks: read whole into memory, with no stream to set up per request.
      if (range && range.end - range.start < IN_MEMORY_RANGE_BYTES) {
        const bytes = await storage.readRange(storageKey, range);
        await recordSent(bytes.length);
        return reply.send(bytes);
      }
      const body = storage.createReadStream(storageKey, range ?? undefined);
      return reply.send(countsSession || keepsCopy ? countSent(body, recordSent, req.log) : body);
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
