import { accountDataApi, type DeleteAccountRequest } from '@mesmer/shared/api/account-data';
import {
  authApi,
  type ChangePasswordRequest,
  type LoginRequest,
  type RegisterRequest,
  type ResetPasswordRequest,
} from '@mesmer/shared/api/auth';
import { type SelfUser, usersApi } from '@mesmer/shared/api/users';
import { type Permission, SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { browserTimezone, call } from '../../lib/api-client.ts';
import { markSessionSeen, readSessionMarker } from './session-sync.ts';

/** The signed-in user (null when signed out). Every feature reads the session through this. */
export const currentUserQuery = queryOptions({
  queryKey: ['user', 'self'],
  // Without ?username the server answers the caller's own view, the SelfUser branch of the union.
  queryFn: async () => (await call(usersApi.get)).user as SelfUser | null,
  staleTime: 60_000,
});

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

const isCurrentUserKey = (key: readonly unknown[]) =>
  key[0] === currentUserQuery.queryKey[0] && key[1] === currentUserQuery.queryKey[1];

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
      call(authApi.login, { body: { ...input, timezone: browserTimezone() } }),
    onSuccess: (session) => sessionChanged(queryClient, session.user),
  });
}

/** POST /api/register: creates the account and signs it in. */
export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<RegisterRequest, 'timezone'>) =>
      call(authApi.register, { body: { ...input, timezone: browserTimezone() } }),
    onSuccess: (session) => sessionChanged(queryClient, session.user),
  });
}

/** DELETE /api/token: ends this browser's session. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(authApi.logout),
    onSuccess: () => sessionChanged(queryClient, null),
  });
}

/** DELETE /api/sessions: every session of the account ends, this one too. */
export function useLogoutEverywhere() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(authApi.logoutEverywhere),
    onSuccess: () => sessionChanged(queryClient, null),
  });
}

/** PUT /api/user/password: other sessions end; this browser keeps going on the new one. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangePasswordRequest) => call(authApi.changePassword, { body: input }),
    onSuccess: (session) => sessionChanged(queryClient, session.user),
  });
}

/** DELETE /api/user: the account is gone and this browser signed out. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DeleteAccountRequest) => call(accountDataApi.delete, { body: input }),
    onSuccess: () => sessionChanged(queryClient, null),
  });
}

/** POST /api/verify: 204 means the e-mail address is verified. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => call(authApi.verify, { body: { token } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
  });
}

/** POST /api/reset_password without a token: e-mails a reset link; answers a confirmation text. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: async (input: Required<Pick<ResetPasswordRequest, 'username' | 'email'>>) => {
      const answer = await call(authApi.resetPassword, { body: input });
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
      call(authApi.resetPassword, { body: input }),
  });
}
