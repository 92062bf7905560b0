import type { SelfUser } from '@mesmer/shared/api/users';
import { type Permission, SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';

/** The signed-in user (null when signed out). Every feature reads the session through this. */
export const currentUserQuery = queryOptions({
  queryKey: ['user', 'self'],
  queryFn: async () => (await api<{ user: SelfUser | null }>('/user')).user,
  staleTime: 60_000,
});

export function useCurrentUser() {
  const q = useQuery(currentUserQuery);
  return { user: q.data ?? null, isLoaded: q.isFetched || q.isError, isLoading: q.isLoading };
}

export function userCan(user: SelfUser | null, permission: Permission): boolean {
  return !!user && user.permissions.includes(permission);
}

export function isSiteOwner(user: SelfUser | null): boolean {
  return user?.id === SITE_OWNER_ID;
}
