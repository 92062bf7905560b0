import type { SelfUser, UpdateUserRequest } from '@mesmer/shared/api/users';
import type { GrantableRole } from '@mesmer/shared/domain/permissions';
import { routePath } from '@mesmer/shared/routes/address';
import { usersRoutes } from '@mesmer/shared/routes/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { currentUserQuery, userByNameQuery } from '../../api/users.ts';
import { ApiError, call } from '../../lib/api-client.ts';

/** Grants (`grant`) or revokes one role of a user: PUT / DELETE /api/users/:id/roles. */
async function changeRole({ userId, role, grant }: { userId: number; role: GrantableRole; grant: boolean }) {
  const { roles } = grant
    ? await call(usersRoutes.grantRole, { params: { id: userId }, body: { role } })
    : await call(usersRoutes.revokeRole, { params: { id: userId }, query: { role } });
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

/**
 * POST /api/user/upload, multipart with the one image in `file`. The JSON client cannot send a
 * form, so this posts it itself and reads errors as `call` does.
 */
async function uploadAvatar(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await fetch(`/api${routePath(usersRoutes.uploadAvatar)}`, {
    method: 'POST',
    body: form,
    credentials: 'same-origin',
  });
  const data = await res.json().catch(() => null);
  if (res.ok) return data.url;
  throw new ApiError(res.status, data?.error ?? `Request failed (${res.status}).`, data?.field);
}

/** Puts a changed own user into the signed-in user and, when open, their public profile. */
function useOwnUserChanged() {
  const queryClient = useQueryClient();
  return (change: (user: SelfUser) => SelfUser) => {
    const me = queryClient.getQueryData(currentUserQuery.queryKey);
    if (!me) return;
    const next = change(me);
    queryClient.setQueryData(currentUserQuery.queryKey, next);
    queryClient.setQueryData(userByNameQuery(me.username).queryKey, (user) =>
      user ? { ...user, imageURL: next.imageURL, biography: next.biography, triggers: next.triggers } : user,
    );
  };
}

export function useUploadAvatar() {
  const changed = useOwnUserChanged();
  return useMutation({
    mutationFn: uploadAvatar,
    onSuccess: (imageURL) => changed((me) => ({ ...me, imageURL })),
  });
}

/** Saves what changed of the profile (PUT /api/user with only those fields). */
export function useSaveProfile() {
  const changed = useOwnUserChanged();
  return useMutation({
    mutationFn: (change: Pick<UpdateUserRequest, 'biography' | 'triggers'>) =>
      call(usersRoutes.update, { body: change }),
    onSuccess: ({ user }) => changed(() => user),
  });
}
