/**
 * Roles and the permissions they hold. The spec names both but not the mapping;
 * this is ours (docs/decisions/002-roles-and-permissions.md).
 */
export const ROLE_NAMES = [
  'Administrator',
  'Moderator',
  'Verified Creator',
  'Music Creator',
  'Contributor',
] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

export const PERMISSIONS = [
  'UPLOAD_ALL_FILES',
  'UPLOAD_MUSIC_FILES',
  'UPLOAD_PRIVATE_FILES',
  'READ_ALL_FILES',
  'WRITE_ALL_FILES',
  'CREATE_TRIGGERS',
  'REQUEST_TRIGGERS',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Record<RoleName, readonly Permission[]> = {
  Administrator: PERMISSIONS,
  Moderator: ['READ_ALL_FILES', 'WRITE_ALL_FILES', 'CREATE_TRIGGERS', 'REQUEST_TRIGGERS'],
  'Verified Creator': ['UPLOAD_ALL_FILES', 'REQUEST_TRIGGERS'],
  'Music Creator': ['UPLOAD_MUSIC_FILES', 'REQUEST_TRIGGERS'],
  Contributor: ['UPLOAD_PRIVATE_FILES', 'REQUEST_TRIGGERS'],
};

/** Verified Creator and Music Creator form the creator group. */
export const CREATOR_ROLES: readonly RoleName[] = ['Verified Creator', 'Music Creator'];

/**
 * The roles an administrator grants and revokes on the site (a user's page). Administrator is not
 * among them: administrators are made by `npm run admin` only (decision 013), so no one signed in
 * on the site can make another administrator or remove one.
 */
export const GRANTABLE_ROLES = [
  'Verified Creator',
  'Music Creator',
  'Contributor',
  'Moderator',
] as const satisfies readonly RoleName[];
export type GrantableRole = (typeof GRANTABLE_ROLES)[number];

/** The site owner: the spec's "user with id 1" (core playlists, core triggers, track numbers). */
export const SITE_OWNER_ID = 1;

export function permissionsOf(roles: readonly string[]): Set<Permission> {
  const out = new Set<Permission>();
  for (const role of roles) {
    for (const p of ROLE_PERMISSIONS[role as RoleName] ?? []) out.add(p);
  }
  return out;
}

export function hasPermission(user: { roles: readonly string[] } | null | undefined, p: Permission): boolean {
  return !!user && permissionsOf(user.roles).has(p);
}

export function canUpload(user: { roles: readonly string[] } | null | undefined): boolean {
  return (
    hasPermission(user, 'UPLOAD_ALL_FILES') ||
    hasPermission(user, 'UPLOAD_MUSIC_FILES') ||
    hasPermission(user, 'UPLOAD_PRIVATE_FILES')
  );
}

/**
 * Publishes triggers directly and reviews requests (approve, edit, delete): holders of
 * CREATE_TRIGGERS (decision 002). Holders of only the request permission submit requests.
 */
export function canPublishTrigger(user: { roles: readonly string[] } | null | undefined): boolean {
  return hasPermission(user, 'CREATE_TRIGGERS');
}

export function canAddTrigger(user: { roles: readonly string[] } | null | undefined): boolean {
  return hasPermission(user, 'CREATE_TRIGGERS') || hasPermission(user, 'REQUEST_TRIGGERS');
}

/** Grants and revokes roles on users' pages: Administrators (decision 002). */
export function canManageRoles(user: { roles: readonly string[] } | null | undefined): boolean {
  return !!user && user.roles.includes('Administrator');
}
