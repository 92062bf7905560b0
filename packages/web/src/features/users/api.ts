import { usersApi } from '@mesmer/shared/api/users';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../lib/api-client.ts';

/** GET /api/user?username=: anyone's public profile (404 when there is no such user). */
export function userByNameQuery(username: string) {
  return queryOptions({
    queryKey: ['user', 'name', username],
    queryFn: async ({ signal }) => {
      const { user } = await call(usersApi.get, { query: { username }, signal });
      return user;
    },
  });
}
