import type { CreateTriggerRequest, Trigger, updateTriggerRequest } from '@mesmer/shared/api/triggers';
import { canAddTrigger, canPublishTrigger } from '@mesmer/shared/domain/permissions';
import { triggerSlug } from '@mesmer/shared/domain/triggers';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { requirePermission, type SessionUser } from '../../platform/access.ts';
import { Conflict, NotFound } from '../../platform/errors.ts';
import { toTrigger } from './triggers.presenter.ts';
import { createTriggersRepo } from './triggers.repo.ts';

const notFound = () => new NotFound('Trigger not found.');
const nameTaken = () => new Conflict('A trigger with that name already exists.');

export type TriggersService = ReturnType<typeof createTriggersService>;

export function createTriggersService({ db }: { db: Db }) {
  const repo = createTriggersRepo(db);

  async function reload(id: number): Promise<Trigger> {
    const row = await repo.findById(id);
    if (!row) throw notFound();
    return toTrigger(row);
  }

  return {
    /** Public: published triggers by name. */
    async list() {
      return (await repo.listByName()).map(toTrigger);
    },
    /** For the generator: the weights of published triggers among `ids`. */
    weights: (ids: readonly number[]) => repo.weights(ids),
    async findOne(by: { uuid?: string; name?: string }): Promise<Trigger> {
      const row = by.uuid
        ? await repo.findByUuid(by.uuid)
        : await repo.findBySlug(triggerSlug(by.name ?? ''));
      if (!row) throw notFound();
      return toTrigger(row);
    },
    /** Staff see every pending request; a requester sees their own. */
    async requests(user: SessionUser): Promise<Trigger[]> {
      requirePermission(user, canAddTrigger);
      const rows = await repo.listPending(canPublishTrigger(user) ? undefined : user.id);
      return rows.map(toTrigger);
    },
    /** CREATE_TRIGGERS publishes; the request permission alone stores a pending request. */
    async create(user: SessionUser, input: Required<CreateTriggerRequest>): Promise<Trigger> {
      requirePermission(user, canAddTrigger);
      const name = input.name.trim();
      const id = await repo.insert({
        name,
        description: input.description,
        creatorId: user.id,
        pending: !canPublishTrigger(user),
      });
      if (id === null) throw nameTaken();
      return reload(id);
    },
    async update(user: SessionUser, input: z.output<typeof updateTriggerRequest>): Promise<Trigger> {
      // Reviewing requests and changing triggers is for holders of CREATE_TRIGGERS (decision 002).
      requirePermission(user, canPublishTrigger);
      if (input.name !== undefined && (await repo.nameTaken(input.name, input.id))) throw nameTaken();
      const found = await repo.update(input.id, {
        ...(input.name !== undefined && { name: input.name }),
        ...(input.description !== undefined && { description: input.description }),
        ...(input.approve && { pending: false as const }),
      });
      if (!found) throw notFound();
      return reload(input.id);
    },
    async delete(user: SessionUser, id: number) {
      requirePermission(user, canPublishTrigger);
      if (!(await repo.delete(id))) throw notFound();
    },
  };
}
