// What other parts of the web app may use from auth: the signed-in user, permissions, logout and
// the cross-tab session watch.
export { currentUserQuery, isSiteOwner, useCurrentUser, useLogout, userCan } from './api.ts';
export { useSessionSync } from './session-sync.ts';
