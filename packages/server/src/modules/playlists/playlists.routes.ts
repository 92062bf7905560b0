import { playlistsApi } from '@mesmer/shared/api/playlists';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../platform/auth.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import type { ReadCache } from '../../platform/read-cache.ts';
import type { PlaylistsService } from './playlists.service.ts';

/** Playlists show their files' names, durations, locks and triggers. */
const PLAYLISTS_READ = ['files', 'playlists'] as const;

export async function playlistsRoutes(
  app: FastifyInstance,
  { playlists: service, readCache }: { playlists: PlaylistsService; readCache: ReadCache },
) {
  registerRoute(app, playlistsApi.list, async (req, reply) => {
    const viewer = await service.listViewer(req.user, req.query);
    const personal = service.isPersonal(req.query);
    const answerViewer = service.answerViewer(viewer, req.query);
    return readCache.answer(req, reply, { reads: PLAYLISTS_READ, viewer: answerViewer, personal }, () =>
      service.list(req.user, viewer, req.query),
    );
  });

  registerRoute(app, playlistsApi.recent, async (req, reply) => {
    const viewer = await service.listViewer(req.user, {});
    const answerViewer = service.answerViewer(viewer, { simple: true });
    return readCache.answer(req, reply, { reads: PLAYLISTS_READ, viewer: answerViewer }, () =>
      service.recent(viewer),
    );
  });

  registerRoute(app, playlistsApi.create, async (req, reply) =>
    reply.code(201).send(await service.create(requireUser(req), req.body)),
  );

  registerRoute(app, playlistsApi.update, async (req) => ({
    playlist: await service.update(requireUser(req), req.body),
  }));

  registerRoute(app, playlistsApi.delete, async (req, reply) => {
    await service.delete(requireUser(req), req.query.id);
    return reply.code(204).send(null);
  });

  registerRoute(app, playlistsApi.userInfo, async (req) => service.userInfo(req.user, req.query.id));

  registerRoute(app, playlistsApi.rate, async (req) => service.rate(requireUser(req), req.body));
}
