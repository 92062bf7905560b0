import type { PatreonStatus, PatreonTokenRequest } from '@mesmer/shared/api/patreon';
import type { SelfUser } from '@mesmer/shared/api/users';
import { patreonRoutes } from '@mesmer/shared/routes/patreon';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { isCurrentUserKey } from '../../api/auth.ts';
import { currentUserQuery } from '../../api/users.ts';
import { call } from '../../lib/api-client.ts';

/**
 * The link changed (linked, read again, disconnected): the signed-in user takes the new state,
 * and everything else is fetched again, since files may have locked or unlocked.
 */
function linkChanged(queryClient: QueryClient, status: PatreonStatus) {
  queryClient.setQueryData(currentUserQuery.queryKey, (user: SelfUser | null | undefined) =>
    user ? { ...user, ...status } : user,
  );
  void queryClient.invalidateQueries({ predicate: (q) => !isCurrentUserKey(q.queryKey) });
}

/** GET /api/patreon/authorize (`creator`: also the campaign's tiers), then off to Patreon's authorize page. */
export function useStartPatreonLink() {
  return useMutation({
    mutationFn: (creator: boolean) =>
      call(patreonRoutes.authorize, { query: creator ? { creator: true } : {} }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

/** POST /api/patreon/token with the code and state Patreon sent back. */
export function useFinishPatreonLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PatreonTokenRequest) => call(patreonRoutes.token, { body }),
    onSuccess: (status) => linkChanged(queryClient, status),
  });
}

/** GET /api/patreon: the memberships read again from Patreon. */
export function useRefreshPatreon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(patreonRoutes.refresh),
    onSuccess: (status) => linkChanged(queryClient, status),
  });
}

/** DELETE /api/patreon. */
export function useDisconnectPatreon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(patreonRoutes.disconnect),
    onSuccess: () => linkChanged(queryClient, { patreonLinked: false, patreonName: null, memberships: [] }),
  });
}

/** POST /api/patreon/tiers/import: the creator's campaign tiers, to lock files to. */
export function useImportPatreonTiers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(patreonRoutes.importTiers, { body: {} }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
