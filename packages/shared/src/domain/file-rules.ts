/**
 * Who may publish and edit files, and with which settings (spec sections 5-6; docs/decisions/002
 * maps roles to permissions). The server enforces these; the web builds its forms on them.
 */
import { FILE_TYPES, isMusicType } from './file-types.ts';
import { hasPermission, SITE_OWNER_ID } from './permissions.ts';

interface RuleUser {
  id: number;
  roles: readonly string[];
}

/** The spec's text when a file has no type. */
export const FILE_TYPE_REQUIRED_MESSAGE = 'The file type tag must be set.';
export const FILE_NAME_MAX = 200;
export const FILE_DESCRIPTION_MAX = 5000;
/** Triggers one file may link. */
export const FILE_TRIGGERS_MAX = 100;

const ALL_TYPE_IDS: readonly number[] = FILE_TYPES.map((t) => t.id);

/**
 * Whether `user` may publish a file of `fileType` with that visibility: UPLOAD_ALL_FILES any;
 * UPLOAD_MUSIC_FILES music types (7, 9), public or private; UPLOAD_PRIVATE_FILES any type kept
 * private. Holders of several permissions get the union.
 */
export function mayPublishAs(user: RuleUser, file: { fileType: number; isPublic: boolean }): boolean {
  if (hasPermission(user, 'UPLOAD_ALL_FILES')) return true;
  if (hasPermission(user, 'UPLOAD_MUSIC_FILES') && isMusicType(file.fileType)) return true;
  return hasPermission(user, 'UPLOAD_PRIVATE_FILES') && !file.isPublic;
}

/** What an upload form may offer `user`; null without any upload permission. */
export interface UploadScope {
  /** The type ids `user` may choose (publicly, or privately when `privateOnly`). */
  fileTypes: number[];
  /** Files can only be private: the form offers no public choice. */
  privateOnly: boolean;
}

export function uploadScope(user: RuleUser): UploadScope | null {
  const fileTypes = ALL_TYPE_IDS.filter(
    (fileType) =>
      mayPublishAs(user, { fileType, isPublic: true }) || mayPublishAs(user, { fileType, isPublic: false }),
  );
  if (fileTypes.length === 0) return null;
  const privateOnly = !fileTypes.some((fileType) => mayPublishAs(user, { fileType, isPublic: true }));
  return { fileTypes, privateOnly };
}

/**
 * Whether a new file is public when the form does not say: yes, unless the uploader may only
 * publish it privately.
 */
export function defaultVisibility(user: RuleUser, fileType: number): boolean {
  return mayPublishAs(user, { fileType, isPublic: true });
}

/** Edit or delete a file: its uploader or holders of WRITE_ALL_FILES. */
export function canEditFile(user: RuleUser | null | undefined, file: { uploaderId: number }): boolean {
  return !!user && (user.id === file.uploaderId || hasPermission(user, 'WRITE_ALL_FILES'));
}

/**
 * Whether an edit by `user` is held to the upload rules of type and visibility: the uploader is,
 * unless they also hold WRITE_ALL_FILES (staff may set any type on any file).
 */
export function editFollowsUploadRules(user: RuleUser): boolean {
  return !hasPermission(user, 'WRITE_ALL_FILES');
}

/** Track numbers: only the site owner (user id 1), a whole number ≥ 0. */
export function canSetTrackNumber(user: RuleUser | null | undefined): boolean {
  return user?.id === SITE_OWNER_ID;
}

/**
 * Who sets a file's membership tier: only its uploader, and only with a linked membership account
 * (`hasLinkedTiers`: the uploader owns tiers). Anyone else editing keeps the file's tier.
 */
export function canSetTier(
  user: RuleUser,
  file: { uploaderId: number } | null,
  hasLinkedTiers: boolean,
): boolean {
  return hasLinkedTiers && (file === null || file.uploaderId === user.id);
}
