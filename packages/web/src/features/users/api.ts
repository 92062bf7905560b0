import type { getUserResponse } from '@mesmer/shared/api/users';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../lib/api-client.ts';

/** GET /api/user?username=: anyone's public profile (404 when there is no such user). */
export function userByNameQuery(username: string) {
  return queryOptions({
    queryKey: ['user', 'name', username],
    queryFn: async ({ signal }) => {
      const { user } = await api<z.infer<typeof getUserResponse>>('/user', { query: { username }, signal });
      return user;
    },
  });
}
