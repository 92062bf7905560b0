import type { SelfUser, UpdateUserRequest } from '@mesmer/shared/api/users';
import { usersRoutes } from '@mesmer/shared/routes/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { currentUserQuery } from '../../api/users.ts';
import { call } from '../../lib/api-client.ts';
import { toast } from '../../ui/index.ts';

/** The settings the account page changes with PUT /api/user. */
export type SettingsChange = Pick<
  UpdateUserRequest,
  'censorTriggers' | 'hideLockedFiles' | 'insightsOptOut' | 'lovenseSettings'
>;

function withChange(user: SelfUser, change: SettingsChange): SelfUser {
  return {
    ...user,
    censorTriggers: change.censorTriggers ?? user.censorTriggers,
    hideLockedFiles: change.hideLockedFiles ?? user.hideLockedFiles,
    insightsOptOut: change.insightsOptOut ?? user.insightsOptOut,
    lovenseSettings: { ...user.lovenseSettings, ...change.lovenseSettings },
  };
}

/** The values `change` overwrites, as they were in `user`: applying them undoes the change. */
function undoOf(user: SelfUser, change: SettingsChange): SettingsChange {
  const undo: SettingsChange = {};
  if (change.censorTriggers !== undefined) undo.censorTriggers = user.censorTriggers;
  if (change.hideLockedFiles !== undefined) undo.hideLockedFiles = user.hideLockedFiles;
  if (change.insightsOptOut !== undefined) undo.insightsOptOut = user.insightsOptOut;
  if (change.lovenseSettings) {
    undo.lovenseSettings = Object.fromEntries(
      Object.keys(change.lovenseSettings).map((k) => [
        k,
        user.lovenseSettings[k as keyof SelfUser['lovenseSettings']],
      ]),
    );
  }
  return undo;
}

/**
 * Saves a settings change at once: the page shows it straight away, and on failure
 * only the fields of this change go back (others saved meanwhile stay) with an error toast.
 */
export function useUpdateSettings() {
  const queryClient = useQueryClient();
  const key = currentUserQuery.queryKey;
  return useMutation({
    mutationFn: (change: SettingsChange) => call(usersRoutes.update, { body: change }),
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData(key);
      if (!before) return { undo: null };
      queryClient.setQueryData(key, withChange(before, change));
      return { undo: undoOf(before, change) };
    },
    onError: (_err, _change, context) => {
      const undo = context?.undo;
      if (undo) queryClient.setQueryData(key, (user) => (user ? withChange(user, undo) : user));
      toast('error', 'Failed to save settings.', 'Your change was not saved. Please try again.');
    },
    onSuccess: ({ user }) => queryClient.setQueryData(key, user),
  });
}
