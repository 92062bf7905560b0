import type { FriendsList, SelfUser } from '@mesmer/shared/api/users';
import { usersRoutes } from '@mesmer/shared/routes/users';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';

/** Every users query sits under `all`, so one invalidation refreshes the signed-in user and profiles. */
export const userKeys = {
  all: ['user'] as const,
  self: () => [...userKeys.all, 'self'] as const,
  byName: (username: string) => [...userKeys.all, 'name', username] as const,
  friends: () => [...userKeys.all, 'friends'] as const,
};

/** The signed-in user (null when signed out). Every feature reads the session through this. */
export const currentUserQuery = queryOptions({
  queryKey: userKeys.self(),
  // Without ?username the server answers the caller's own view, the SelfUser branch of the union.
  queryFn: async () => (await call(usersRoutes.get)).user as SelfUser | null,
  staleTime: 60_000,
});

/** GET /api/user?username=: anyone's public profile (404 when there is no such user). */
export function userByNameQuery(username: string) {
  return queryOptions({
    queryKey: userKeys.byName(username),
    queryFn: async ({ signal }) => {
      const { user } = await call(usersRoutes.get, { query: { username }, signal });
      return user;
    },
  });
}

/** GET /api/user/friends: friends, requests to you and your requests. */
export const friendsQuery = queryOptions({
  queryKey: userKeys.friends(),
  queryFn: ({ signal }) => call(usersRoutes.friends, { signal }),
});

/** Asks, accepts (`add`) or cancels / declines / unfriends (`remove`); the lists come back with the answer. */
export function useChangeFriend() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ friendId, add }: { friendId: number; add: boolean }): Promise<FriendsList> =>
      add
        ? call(usersRoutes.addFriend, { body: { friendId } })
        : call(usersRoutes.removeFriend, { query: { friendId } }),
    onSuccess: (lists) => queryClient.setQueryData(friendsQuery.queryKey, lists),
  });
}
