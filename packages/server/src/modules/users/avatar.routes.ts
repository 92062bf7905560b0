import { AVATAR_TOO_LARGE_MESSAGE, MAX_AVATAR_BYTES, usersApi } from '@mesmer/shared/api/users';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireUser } from '../../platform/auth.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import { AppError, BadRequest } from '../../platform/errors.ts';
import { acceptSmallForms, type SmallFormReader } from '../../platform/small-form.ts';
import type { AvatarService } from './avatar.service.ts';

/** Room for the boundaries around the largest image. */
const AVATAR_BODY_LIMIT = MAX_AVATAR_BYTES + 16 * 1024;
const NOT_MULTIPART = 'must be multipart/form-data with one image in `file`.';

class AvatarTooLarge extends AppError {
  constructor() {
    super(413, AVATAR_TOO_LARGE_MESSAGE);
  }
}

/** The one image part of the form (read whole, bounded). */
async function readImagePart(req: FastifyRequest, readForm: SmallFormReader): Promise<Buffer> {
  const form = await readForm(req, 'file', NOT_MULTIPART);
  const files = [...form.values()].filter((v): v is File => v instanceof Blob);
  if (files.length !== 1) throw new BadRequest('file', NOT_MULTIPART);
  if (files[0].size > MAX_AVATAR_BYTES) throw new AvatarTooLarge();
  return Buffer.from(await files[0].arrayBuffer());
}

/** POST /api/user/upload: a new profile image (served by avatarImageRoutes). */
export async function avatarRoutes(app: FastifyInstance, avatars: AvatarService) {
  await app.register(async (scope) => {
    const readForm = await acceptSmallForms(scope, AVATAR_BODY_LIMIT, () => new AvatarTooLarge());
    registerRoute(scope, usersApi.uploadAvatar, async (req) => {
      const me = requireUser(req);
      return { url: await avatars.upload(me.id, await readImagePart(req, readForm)) };
    });
  });
}

/**
 * GET /avatars/<name>, outside /api like /media (an image, not a JSON call): avatars are public
 * (anyone may see a profile), so unlike /media they need no signed link; only names of the
 * `avatars/` folder are served.
 */
export async function avatarImageRoutes(app: FastifyInstance, avatars: AvatarService) {
  app.get<{ Params: { name: string } }>(
    '/avatars/:name',
    { schema: { tags: ['media'], description: 'A profile image (public), as named in a user’s imageURL.' } },
    async (req, reply) => {
      const found = await avatars.open(req.params.name);
      if (!found) return reply.code(404).send({ error: 'Not found.' });
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-length', found.stored.size)
        .type('image/webp')
        .send(found.body());
    },
  );
}
