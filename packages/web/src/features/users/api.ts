import { usersApi } from '@mesmer/shared/api/users';
import type { GrantableRole } from '@mesmer/shared/domain/permissions';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api-client.ts';
import { currentUserQuery } from '../auth/index.ts';

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

/** Grants (`grant`) or revokes one role of a user: PUT / DELETE /api/users/:id/roles. */
async function changeRole({ userId, role, grant }: { userId: number; role: GrantableRole; grant: boolean }) {
  const { roles } = grant
    ? await call(usersApi.grantRole, { params: { id: userId }, body: { role } })
    : await call(usersApi.revokeRole, { params: { id: userId }, query: { role } });
  return roles;
}

/**
 * An administrator gives or takes a role on a user's page: the page's user gets the answered
 * roles; when it is the administrator themselves, their own permissions are read again.
 */
export function useChangeRole(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeRole,
    onSuccess: (roles, { userId }) => {
      queryClient.setQueryData(userByNameQuery(username).queryKey, (user) => user && { ...user, roles });
      if (queryClient.getQueryData(currentUserQuery.queryKey)?.id === userId) {
        void queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey });
      }
    },
  });
}
