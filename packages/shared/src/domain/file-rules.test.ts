import { describe, expect, it } from 'vitest';
import {
  canEditFile,
  canSetTier,
  canSetTrackNumber,
  defaultVisibility,
  editFollowsUploadRules,
  mayPublishAs,
  uploadScope,
} from './file-rules.ts';

const user = (roles: string[], id = 5) => ({ id, roles });
const allTypes = [1, 2, 3, 4, 5, 6, 7, 8, 9];

describe('mayPublishAs', () => {
  it('lets UPLOAD_ALL_FILES publish any type, public or private', () => {
    for (const fileType of allTypes) {
      expect(mayPublishAs(user(['Verified Creator']), { fileType, isPublic: true })).toBe(true);
      expect(mayPublishAs(user(['Verified Creator']), { fileType, isPublic: false })).toBe(true);
    }
  });

  it('lets UPLOAD_MUSIC_FILES publish music (7) and AI music (9) only', () => {
    const music = user(['Music Creator']);
    expect(allTypes.filter((fileType) => mayPublishAs(music, { fileType, isPublic: true }))).toEqual([7, 9]);
    expect(allTypes.filter((fileType) => mayPublishAs(music, { fileType, isPublic: false }))).toEqual([7, 9]);
  });

  it('lets UPLOAD_PRIVATE_FILES publish any type kept private', () => {
    const contributor = user(['Contributor']);
    expect(mayPublishAs(contributor, { fileType: 2, isPublic: false })).toBe(true);
    expect(mayPublishAs(contributor, { fileType: 2, isPublic: true })).toBe(false);
    expect(mayPublishAs(contributor, { fileType: 7, isPublic: true })).toBe(false);
  });

  it('gives holders of several permissions the union', () => {
    const both = user(['Music Creator', 'Contributor']);
    expect(mayPublishAs(both, { fileType: 7, isPublic: true })).toBe(true);
    expect(mayPublishAs(both, { fileType: 2, isPublic: false })).toBe(true);
    expect(mayPublishAs(both, { fileType: 2, isPublic: true })).toBe(false);
  });

  it('refuses users without an upload permission, staff included', () => {
    for (const roles of [[], ['Moderator']]) {
      expect(mayPublishAs(user(roles), { fileType: 2, isPublic: false })).toBe(false);
    }
  });
});

describe('uploadScope', () => {
  it('offers what the permissions allow', () => {
    expect(uploadScope(user(['Administrator']))).toEqual({ fileTypes: allTypes, privateOnly: false });
    expect(uploadScope(user(['Verified Creator']))).toEqual({ fileTypes: allTypes, privateOnly: false });
    expect(uploadScope(user(['Music Creator']))).toEqual({ fileTypes: [7, 9], privateOnly: false });
    expect(uploadScope(user(['Contributor']))).toEqual({ fileTypes: allTypes, privateOnly: true });
    expect(uploadScope(user(['Music Creator', 'Contributor']))).toEqual({
      fileTypes: allTypes,
      privateOnly: false,
    });
  });

  it('is null without an upload permission', () => {
    expect(uploadScope(user([]))).toBeNull();
    expect(uploadScope(user(['Moderator']))).toBeNull();
  });
});

describe('defaultVisibility', () => {
  it('is public unless the uploader may only publish the type privately', () => {
    expect(defaultVisibility(user(['Verified Creator']), 2)).toBe(true);
    expect(defaultVisibility(user(['Contributor']), 2)).toBe(false);
    expect(defaultVisibility(user(['Music Creator', 'Contributor']), 7)).toBe(true);
    expect(defaultVisibility(user(['Music Creator', 'Contributor']), 2)).toBe(false);
  });
});

describe('canEditFile', () => {
  it('lets the uploader and WRITE_ALL_FILES holders edit', () => {
    expect(canEditFile(user([], 5), { uploaderId: 5 })).toBe(true);
    expect(canEditFile(user(['Moderator'], 6), { uploaderId: 5 })).toBe(true);
    expect(canEditFile(user(['Administrator'], 6), { uploaderId: 5 })).toBe(true);
  });

  it('refuses anyone else and anonymous viewers', () => {
    expect(canEditFile(user(['Verified Creator'], 6), { uploaderId: 5 })).toBe(false);
    expect(canEditFile(null, { uploaderId: 5 })).toBe(false);
    expect(canEditFile(undefined, { uploaderId: 5 })).toBe(false);
  });
});

describe('editFollowsUploadRules', () => {
  it('holds uploaders to the upload rules unless they hold WRITE_ALL_FILES', () => {
    expect(editFollowsUploadRules(user(['Music Creator']))).toBe(true);
    expect(editFollowsUploadRules(user(['Moderator']))).toBe(false);
  });
});

describe('canSetTrackNumber', () => {
  it('is only for user id 1', () => {
    expect(canSetTrackNumber(user([], 1))).toBe(true);
    expect(canSetTrackNumber(user(['Administrator'], 2))).toBe(false);
    expect(canSetTrackNumber(null)).toBe(false);
  });
});

describe('canSetTier', () => {
  it('is for an uploader with a linked membership account', () => {
    expect(canSetTier(user([], 5), null, true)).toBe(true);
    expect(canSetTier(user([], 5), { uploaderId: 5 }, true)).toBe(true);
    expect(canSetTier(user([], 5), { uploaderId: 5 }, false)).toBe(false);
    expect(canSetTier(user(['Moderator'], 6), { uploaderId: 5 }, true)).toBe(false);
  });
});
