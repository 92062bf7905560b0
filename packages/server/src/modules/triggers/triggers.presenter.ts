import type { Trigger } from '@mesmer/shared/api/triggers';
import { SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import type { TriggerRow } from './triggers.repo.ts';

/** Exactly what goes out of a trigger. */
export function toTrigger(row: TriggerRow): Trigger {
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    description: row.description,
    creator: row.creatorUsername === null ? null : { id: row.creatorId, username: row.creatorUsername },
    isCore: row.creatorId === SITE_OWNER_ID,
    category: row.category,
    weight: row.weight,
    pending: row.pending,
  };
}
