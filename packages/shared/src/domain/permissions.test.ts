import { describe, expect, it } from 'vitest';
import { canManageRoles, canUpload, GRANTABLE_ROLES, permissionsOf, ROLE_NAMES } from './permissions.ts';

describe('roles an administrator manages (decision 002)', () => {
  it('grants every role but Administrator on the site', () => {
    expect(GRANTABLE_ROLES).toEqual(['Verified Creator', 'Music Creator', 'Contributor', 'Moderator']);
    expect(ROLE_NAMES.filter((r) => !(GRANTABLE_ROLES as readonly string[]).includes(r))).toEqual([
      'Administrator',
    ]);
  });

  it('lets only Administrators manage roles', () => {
    expect(canManageRoles({ roles: ['Administrator'] })).toBe(true);
    for (const role of GRANTABLE_ROLES) expect(canManageRoles({ roles: [role] }), role).toBe(false);
    expect(canManageRoles({ roles: [] })).toBe(false);
    expect(canManageRoles(null)).toBe(false);
  });

  it('gives each creator role an upload permission and takes it with the last one', () => {
    for (const role of ['Verified Creator', 'Music Creator', 'Contributor']) {
      expect(canUpload({ roles: [role] }), role).toBe(true);
    }
    expect(canUpload({ roles: ['Moderator'] })).toBe(false);
    expect([...permissionsOf(['Music Creator', 'Contributor'])]).toEqual([
      'UPLOAD_MUSIC_FILES',
      'REQUEST_TRIGGERS',
      'UPLOAD_PRIVATE_FILES',
    ]);
  });
});
