import { ROLE_NAMES } from '@mesmer/shared/domain/permissions';
import type { Db } from '../client.ts';
import { roles } from '../schema/index.ts';

export async function seedRoles(db: Db) {
  await db
    .insert(roles)
    .values(ROLE_NAMES.map((name) => ({ name })))
    .onConflictDoNothing({ target: roles.name });
}
