// What other parts of the web app may use from auth: the signed-in user, permissions, signing out
// (here or everywhere), password change, account deletion and the cross-tab session watch.
export {
  currentUserQuery,
  isSiteOwner,
  useChangePassword,
  useCurrentUser,
  useDeleteAccount,
  useLogout,
  useLogoutEverywhere,
  userCan,
} from './api.ts';
export { useSessionSync } from './session-sync.ts';
