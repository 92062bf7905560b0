/**
 * What the player gets from the features (it imports none): the signed-in user, points after a
 * listening session, fresh file links and training-plan progress, all through the query cache.
 */
import { MutationObserver, type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { fileByUuidQuery } from '../api/files.ts';
import { leaderboardKeys } from '../api/leaderboard.ts';
import { planQuery, savePlanProgressMutation } from '../api/plans.ts';
import { currentUserQuery } from '../api/users.ts';
import { ApiError } from '../lib/api-client.ts';
import type { PlayerServices } from '../player/types.ts';

export function playerServices(client: QueryClient): PlayerServices {
  return {
    currentUser: () => client.getQueryData(currentUserQuery.queryKey) ?? null,
    pointsEarned(result) {
      client.setQueryData(currentUserQuery.queryKey, (user) =>
        user ? { ...user, points: result.totalPoints, streak: result.streak } : user,
      );
      void client.invalidateQueries({ queryKey: leaderboardKeys.all });
    },
    async fetchFile(uuid) {
      // Always from the server (signed links expire), and at once: the player gives up on a failure.
      try {
        return await client.fetchQuery({ ...fileByUuidQuery(uuid), staleTime: 0, retry: false });
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    async planPosition(plan) {
      return (await client.fetchQuery({ ...planQuery(plan.uuid), staleTime: 0, retry: false })).position;
    },
    async savePlanPosition(plan, position) {
      await new MutationObserver(client, savePlanProgressMutation(client)).mutate({
        id: plan.id,
        playlistIndex: position,
      });
    },
  };
}

export function usePlayerServices(): PlayerServices {
  const client = useQueryClient();
  return useMemo(() => playerServices(client), [client]);
}
