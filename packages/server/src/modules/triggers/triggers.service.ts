import type { CreateTriggerRequest, Trigger } from '@mesmer/shared/api/triggers';
import { SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import { triggerSlug } from '@mesmer/shared/domain/triggers';
import type { AppContext } from '../../platform/context.ts';
import { Conflict, NotFound } from '../../platform/errors.ts';
import type { SessionUser } from '../auth/session.repo.ts';
import { createTriggersRepo, type TriggerRow } from './triggers.repo.ts';

function present(row: TriggerRow): Trigger {
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    description: row.description,
    creator: { id: row.creatorId, username: row.creatorUsername },
    isCore: row.creatorId === SITE_OWNER_ID,
  };
}

const notFound = () => new NotFound('Trigger not found.');

export function createTriggersService(ctx: AppContext) {
  const repo = createTriggersRepo(ctx.db);
  return {
    async list() {
      return (await repo.listByName()).map(present);
    },
    async findOne(by: { uuid?: string; name?: string }): Promise<Trigger> {
      const row = by.uuid
        ? await repo.findByUuid(by.uuid)
        : await repo.findBySlug(triggerSlug(by.name ?? ''));
      if (!row) throw notFound();
      return present(row);
    },
    /** The caller has checked the add-trigger permission. */
    async create(user: SessionUser, input: Required<CreateTriggerRequest>): Promise<Trigger> {
      const name = input.name.trim();
      const id = await repo.insert({ name, description: input.description, creatorId: user.id });
      if (id === null) throw new Conflict('A trigger with that name already exists.');
      const row = await repo.findById(id);
      if (!row) throw notFound();
      return present(row);
    },
  };
}
