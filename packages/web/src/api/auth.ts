import type { DeleteAccountRequest } from '@mesmer/shared/api/account-data';
import type {
  ChangePasswordRequest,
  LoginRequest,
  RegisterRequest,
  ResetPasswordRequest,
} from '@mesmer/shared/api/auth';
import type { SelfUser } from '@mesmer/shared/api/users';
import { type Permission, SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import { accountDataRoutes } from '@mesmer/shared/routes/account-data';
import { authRoutes } from '@mesmer/shared/routes/auth';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { browserTimezone, call } from '../lib/api-client.ts';
import { markSessionSeen, readSessionMarker } from './session-sync.ts';
import { currentUserQuery, userKeys } from './users.ts';

export function useCurrentUser() {
  const q = useQuery(currentUserQuery);
  const isLoaded = q.isFetched || q.isError;
  return {
    user: q.data ?? null,
    isLoaded,
    isLoading: q.isLoading,
    /**
     * Known to be signed out: answered so, or, before the answer, no sign-in marker cookie (a page
     * can then show the visitor's cards at once instead of moving everything down when they come).
     */
    isVisitor: isLoaded ? !q.data : readSessionMarker() === null,
  };
}

export function userCan(user: SelfUser | null, permission: Permission): boolean {
  return !!user && user.permissions.includes(permission);
}

export function isSiteOwner(user: SelfUser | null): boolean {
  return user?.id === SITE_OWNER_ID;
}

/** Whether `key` is the signed-in user's own entry (a session change refetches everything else). */
export const isCurrentUserKey = (key: readonly unknown[]) => {
  const self = userKeys.self();
  return key[0] === self[0] && key[1] === self[1];
};

/** After this tab signs in or out: store the new user and refetch everything else for them. */
function sessionChanged(queryClient: QueryClient, user: SelfUser | null) {
  markSessionSeen();
  queryClient.setQueryData(currentUserQuery.queryKey, user);
  void queryClient.invalidateQueries({ predicate: (q) => !isCurrentUserKey(q.queryKey) });
}

/** POST /api/token. `user` is the username (or e-mail); the browser's time zone goes along. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<LoginRequest, 'timezone'>) =>
      call(authRoutes.login, { body: { ...input, timezone: browserTimezone() } }),
    onSuccess: (session) => sessionChanged(queryClient, session.user),
  });
}

/** POST /api/register: creates the account and signs it in. */
export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<RegisterRequest, 'timezone'>) =>
      call(authRoutes.register, { body: { ...input, timezone: browserTimezone() } }),
    onSuccess: (session) => sessionChanged(queryClient, session.user),
  });
}

/** DELETE /api/token: ends this browser's session. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(authRoutes.logout),
    onSuccess: () => sessionChanged(queryClient, null),
  });
}

/** DELETE /api/sessions: every session of the account ends, this one too. */
export function useLogoutEverywhere() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(authRoutes.logoutEverywhere),
    onSuccess: () => sessionChanged(queryClient, null),
  });
}

/** PUT /api/user/password: other sessions end; this browser keeps going on the new one. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangePasswordRequest) => call(authRoutes.changePassword, { body: input }),
    onSuccess: (session) => sessionChanged(queryClient, session.user),
  });
}

/** DELETE /api/user: the account is gone and this browser signed out. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DeleteAccountRequest) => call(accountDataRoutes.delete, { body: input }),
    onSuccess: () => sessionChanged(queryClient, null),
  });
}

/** POST /api/verify: 204 means the e-mail address is verified. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => call(authRoutes.verify, { body: { token } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
  });
}

/** POST /api/reset_password without a token: e-mails a reset link; answers a confirmation text. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: async (input: Required<Pick<ResetPasswordRequest, 'username' | 'email'>>) => {
      const answer = await call(authRoutes.resetPassword, { body: input });
      // Without a token the call answers 200 with its message; 204 is the confirmation's answer.
      if (!answer) throw new Error('POST /api/reset_password answered no message');
      return answer;
    },
  });
}

/** POST /api/reset_password with the e-mailed token: sets the new password (204). */
export function useResetPassword() {
  return useMutation({
    mutationFn: (input: Required<Pick<ResetPasswordRequest, 'token' | 'password'>>) =>
      call(authRoutes.resetPassword, { body: input }),
  });
}
