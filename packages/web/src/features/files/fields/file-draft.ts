/**
 * The draft a file form edits (the upload form and the file editor), its field errors, and the
 * reducer both forms run it through.
 */
import type { CreateFileBody, UpdateFileBody } from '@mesmer/shared/api/files';
import { FILE_NAME_MAX, FILE_TYPE_REQUIRED_MESSAGE } from '@mesmer/shared/domain/file-rules';

export interface PickedTrigger {
  id: number;
  trains: boolean;
}

export interface FileDraft {
  name: string;
  /** 0: none chosen (the 'File type...' placeholder). */
  fileType: number;
  triggers: PickedTrigger[];
  description: string;
  /** Edit only: a new upload's visibility is the server's to choose. */
  isPublic: boolean;
  paidExclusive: boolean;
  /** '': the 'Minimum tier...' placeholder, which is not a valid choice. */
  tier: string;
  /** Upload only, as typed (checked on submit). */
  trackNumber: string;
  /** Upload only: yyyy-mm-dd or ''. */
  releaseDate: string;
}

export type FileFieldName = keyof FileDraft;

/** Per field: a message shown under it, or `true` to mark it invalid while the form says why. */
export type FieldErrors = Partial<Record<FileFieldName, string | true>>;

export interface FileForm {
  draft: FileDraft;
  errors: FieldErrors;
}

type SetField = { [K in FileFieldName]: { type: 'set'; field: K; value: FileDraft[K] } }[FileFieldName];

export type FileFormAction =
  | SetField
  | { type: 'addTrigger'; id: number }
  | { type: 'removeTrigger'; id: number }
  | { type: 'setTrains'; id: number; trains: boolean }
  /** The audio file was picked: it names the draft unless the user already did. */
  | { type: 'audioPicked'; fileName: string }
  | { type: 'invalid'; errors: FieldErrors };

export const EMPTY_DRAFT: FileDraft = {
  name: '',
  fileType: 0,
  triggers: [],
  description: '',
  isPublic: false,
  paidExclusive: false,
  tier: '',
  trackNumber: '',
  releaseDate: '',
};

export const withoutExtension = (fileName: string) => fileName.replace(/\.[^.]+$/, '');

const without = (errors: FieldErrors, ...fields: FileFieldName[]): FieldErrors =>
  Object.fromEntries(Object.entries(errors).filter(([field]) => !fields.includes(field as FileFieldName)));

const withTriggers = (form: FileForm, triggers: PickedTrigger[]): FileForm => ({
  draft: { ...form.draft, triggers },
  errors: without(form.errors, 'triggers'),
});

export function fileFormReducer(form: FileForm, action: FileFormAction): FileForm {
  const { draft, errors } = form;
  switch (action.type) {
    case 'set':
      return {
        draft: { ...draft, [action.field]: action.value },
        // Turning 'Paid exclusive' off or on settles a missing tier either way.
        errors: without(errors, action.field, ...(action.field === 'paidExclusive' ? ['tier' as const] : [])),
      };
    case 'addTrigger':
      if (draft.triggers.some((t) => t.id === action.id)) return form;
      return withTriggers(form, [...draft.triggers, { id: action.id, trains: false }]);
    case 'removeTrigger':
      return withTriggers(
        form,
        draft.triggers.filter((t) => t.id !== action.id),
      );
    case 'setTrains':
      return withTriggers(
        form,
        draft.triggers.map((t) => (t.id === action.id ? { ...t, trains: action.trains } : t)),
      );
    case 'audioPicked':
      if (draft.name.trim()) return form;
      return {
        ...form,
        draft: { ...draft, name: withoutExtension(action.fileName).slice(0, FILE_NAME_MAX) },
      };
    case 'invalid':
      return { ...form, errors: action.errors };
  }
}

export const TIER_REQUIRED_UPLOAD = 'Choose the minimum tier.';
export const TRACK_NUMBER_MESSAGE = 'The track number is digits only, 0 or more.';
export const TIER_REQUIRED_EDIT = 'Choose the minimum tier for a paid-exclusive file.';

/** The upload form's problems; the name is only marked (the form's line asks to fill it out). */
export function uploadErrors(
  draft: FileDraft,
  options: { tiersOffered: boolean; canSetTrackNumber: boolean },
): FieldErrors {
  const errors: FieldErrors = {};
  if (!draft.name.trim()) errors.name = true;
  if (!draft.fileType) errors.fileType = FILE_TYPE_REQUIRED_MESSAGE;
  if (draft.paidExclusive && options.tiersOffered && !draft.tier) errors.tier = TIER_REQUIRED_UPLOAD;
  if (options.canSetTrackNumber && draft.trackNumber !== '' && !/^\d+$/.test(draft.trackNumber)) {
    errors.trackNumber = TRACK_NUMBER_MESSAGE;
  }
  return errors;
}

/** The file editor's first problem, shown as the form's one error line. */
export function editError(
  draft: FileDraft,
  mayChooseTier: boolean,
): { message: string; field: FileFieldName } | null {
  if (!draft.fileType) return { message: FILE_TYPE_REQUIRED_MESSAGE, field: 'fileType' };
  if (mayChooseTier && draft.paidExclusive && !draft.tier)
    return { message: TIER_REQUIRED_EDIT, field: 'tier' };
  return null;
}

/** The draft field a server refusal names ('patreonTier' is the tier select), if it is one. */
export function draftField(serverField: string | undefined): FileFieldName | undefined {
  if (serverField === 'patreonTier') return 'tier';
  return serverField && serverField in EMPTY_DRAFT ? (serverField as FileFieldName) : undefined;
}

/** POST /api/files for a finished upload: the tier only when paid, track number and date only when set. */
export function createFileBody(draft: FileDraft, uuid: string, canSetTrackNumber: boolean): CreateFileBody {
  return {
    name: draft.name.trim(),
    description: draft.description,
    uuid,
    triggers: draft.triggers,
    fileType: draft.fileType,
    ...(draft.paidExclusive && draft.tier ? { patreonTier: draft.tier } : {}),
    ...(canSetTrackNumber && draft.trackNumber !== '' ? { trackNumber: Number(draft.trackNumber) } : {}),
    ...(draft.releaseDate
      ? { releaseDate: new Date(`${draft.releaseDate}T00:00:00.000Z`).toISOString() }
      : {}),
  };
}

/** PUT /api/files. An editor who may not choose the tier keeps the file's own (`keptTier`). */
export function updateFileBody(
  id: number,
  draft: FileDraft,
  tier: { mayChoose: boolean; keptTier: string },
): UpdateFileBody {
  return {
    id,
    name: draft.name.trim(),
    description: draft.description,
    patreonTier: tier.mayChoose ? (draft.paidExclusive ? draft.tier : null) : tier.keptTier || null,
    triggers: draft.triggers,
    fileType: draft.fileType,
    isPublic: draft.isPublic,
  };
}
