import { usersRoutes } from '@mesmer/shared/routes/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { insightsKeys } from '../../api/insights.ts';
import { currentUserQuery } from '../../api/users.ts';
import { call } from '../../lib/api-client.ts';
import { toast } from '../../ui/index.ts';

/** Opts the signed-in listener out of (or back into) creators' insights (PUT /api/user insightsOptOut). */
export function useInsightsOptOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (insightsOptOut: boolean) => call(usersRoutes.update, { body: { insightsOptOut } }),
    onSuccess: ({ user }) => {
      queryClient.setQueryData(currentUserQuery.queryKey, user);
      return queryClient.invalidateQueries({ queryKey: insightsKeys.listening() });
    },
    onError: () => toast('error', 'Failed to save settings.', 'Your change was not saved. Please try again.'),
  });
}
