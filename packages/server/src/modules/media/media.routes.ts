import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Access, SessionUser } from '../../platform/access.ts';
import type { Clock } from '../../platform/clock.ts';
import { INTERNAL_ERROR } from '../../platform/errors.ts';
import type { ReadCache } from '../../platform/read-cache.ts';
import type { UrlSigner } from '../../platform/signed-url.ts';
import { isStorageKey, type Sending, type Storage } from '../../platform/storage.ts';
import type { FilesService } from '../files/files.service.ts';
import type { ListeningService } from '../listening/listening.service.ts';
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

/** Takes the answer over from Fastify, with the status and headers set on the reply so far. */
function takeOver(reply: FastifyReply) {
  reply.hijack();
  const res = reply.raw;
  res.statusCode = reply.statusCode;
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) res.setHeader(name, value);
  }
  return res;
}

/**
 * Sends opened stored bytes as the answer, written to the connection from the store's reused buffers
 * rather than through a stream of fresh ones (decision 037): the reply is taken over, so the headers
 * set on it so far go out as they are. `sent` gets the bytes the connection took before the answer
 * ends (fewer when the client went away).
 */
async function sendOpened(reply: FastifyReply, sending: Sending, sent: (bytes: number) => Promise<void>) {
  const res = takeOver(reply);
  try {
    const bytes = await sending.writeTo(res);
    await sent(bytes).catch((err: unknown) => reply.log.error({ err }, 'recording served audio failed'));
    res.end();
  } catch (err) {
    // A read that failed once the file was open: before its first byte, still a plain 500.
    reply.log.error({ err }, 'sending a stored file failed');
    if (res.headersSent) return void res.destroy();
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ error: INTERNAL_ERROR }));
  }
}

/**
 * Root-level routes (not under /api): signed media streaming with HTTP Range, and
 * /download/{uuid} redirecting to a file's signed audio URL.
 */
export async function mediaRoutes(
  app: FastifyInstance,
  {
    clock,
    readCache,
    storage,
    signer,
    access,
    files,
    listening,
  }: {
    clock: Clock;
    readCache: ReadCache;
    storage: Storage;
    signer: UrlSigner;
    access: Access;
    files: FilesService;
    listening: ListeningService;
  },
) {
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
    // The request's viewer came with its session (access.viewer reads nothing more for it).
    return readCache.lookups.obtain(key, { reads: ['files'] }, () => files.mayPlay(user, fileId));
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
      if (!signer.verify({ urlPath: `/media/${storageKey}`, fileId: file }, exp, sig, clock.now())) {
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
      // Only audio earns listening time; a HEAD sends nothing, so it records nothing.
      const countsSession = session !== undefined && kind === 'audio';
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

      // Fastify's HEAD answer would say Content-Length: 0 for no body; this one has the GET's headers.
      if (req.method === 'HEAD') return void takeOver(reply).end();
      if (stored.size === 0) return reply.send(Buffer.alloc(0));
      // A player's seeks and chunks: read whole into memory, with no stream to set up per request.
      if (range && range.end - range.start < IN_MEMORY_RANGE_BYTES) {
        const bytes = await storage.readRange(storageKey, range);
        await recordSent(bytes.length);
        return reply.send(bytes);
      }
      const sending = await storage.openToSend(storageKey, range ?? { start: 0, end: stored.size - 1 });
      return sendOpened(reply, sending, recordSent);
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
