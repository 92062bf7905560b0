import { FILE_NAME_MAX, FILE_TYPE_REQUIRED_MESSAGE } from '@mesmer/shared/domain/file-rules';
import { describe, expect, it } from 'vitest';
import {
  createFileBody,
  draftField,
  EMPTY_DRAFT,
  editError,
  type FileDraft,
  type FileForm,
  fileFormReducer,
  TIER_REQUIRED_EDIT,
  TIER_REQUIRED_UPLOAD,
  TRACK_NUMBER_MESSAGE,
  updateFileBody,
  uploadErrors,
} from './file-draft.ts';

const formOf = (draft: Partial<FileDraft> = {}, errors: FileForm['errors'] = {}): FileForm => ({
  draft: { ...EMPTY_DRAFT, ...draft },
  errors,
});

describe('fileFormReducer', () => {
  it('sets a field and clears only that field’s error', () => {
    const next = fileFormReducer(formOf({}, { name: true, fileType: 'x' }), {
      type: 'set',
      field: 'name',
      value: 'Drift',
    });
    expect(next.draft.name).toBe('Drift');
    expect(next.errors).toEqual({ fileType: 'x' });
  });

  it('clears a missing tier when Paid exclusive is switched', () => {
    const next = fileFormReducer(formOf({ paidExclusive: true }, { tier: 'x', name: true }), {
      type: 'set',
      field: 'paidExclusive',
      value: false,
    });
    expect(next.draft.paidExclusive).toBe(false);
    expect(next.errors).toEqual({ name: true });
  });

  it('adds a trigger once, not training, then sets Trains and removes it', () => {
    let form = fileFormReducer(formOf({}, { triggers: true }), { type: 'addTrigger', id: 4 });
    expect(form.draft.triggers).toEqual([{ id: 4, trains: false }]);
    expect(form.errors).toEqual({});
    expect(fileFormReducer(form, { type: 'addTrigger', id: 4 })).toBe(form);
    form = fileFormReducer(form, { type: 'addTrigger', id: 9 });
    form = fileFormReducer(form, { type: 'setTrains', id: 9, trains: true });
    expect(form.draft.triggers).toEqual([
      { id: 4, trains: false },
      { id: 9, trains: true },
    ]);
    form = fileFormReducer(form, { type: 'removeTrigger', id: 4 });
    expect(form.draft.triggers).toEqual([{ id: 9, trains: true }]);
  });

  it('names the draft after the picked audio file, unless it has a name', () => {
    const long = `${'a'.repeat(FILE_NAME_MAX + 10)}.mp3`;
    expect(fileFormReducer(formOf(), { type: 'audioPicked', fileName: 'Deep.rest.mp3' }).draft.name).toBe(
      'Deep.rest',
    );
    expect(fileFormReducer(formOf(), { type: 'audioPicked', fileName: long }).draft.name).toHaveLength(
      FILE_NAME_MAX,
    );
    const named = formOf({ name: 'Mine' });
    expect(fileFormReducer(named, { type: 'audioPicked', fileName: 'Deep.mp3' })).toBe(named);
    expect(
      fileFormReducer(formOf({ name: '  ' }), { type: 'audioPicked', fileName: 'Deep.mp3' }).draft.name,
    ).toBe('Deep');
  });

  it('replaces the errors on a check', () => {
    const next = fileFormReducer(formOf({}, { name: true }), { type: 'invalid', errors: { tier: 'x' } });
    expect(next.errors).toEqual({ tier: 'x' });
  });
});

describe('uploadErrors', () => {
  const options = { tiersOffered: true, canSetTrackNumber: true };

  it('marks the name and explains the type, tier and track number', () => {
    expect(
      uploadErrors({ ...EMPTY_DRAFT, name: ' ', paidExclusive: true, trackNumber: '1a' }, options),
    ).toEqual({
      name: true,
      fileType: FILE_TYPE_REQUIRED_MESSAGE,
      tier: TIER_REQUIRED_UPLOAD,
      trackNumber: TRACK_NUMBER_MESSAGE,
    });
  });

  it('accepts a complete draft, and ignores what the uploader cannot set', () => {
    const draft = { ...EMPTY_DRAFT, name: 'Drift', fileType: 2, paidExclusive: true, trackNumber: 'x' };
    expect(uploadErrors(draft, { tiersOffered: false, canSetTrackNumber: false })).toEqual({});
    expect(uploadErrors({ ...draft, tier: 'gold', trackNumber: '0' }, options)).toEqual({});
  });
});

describe('editError', () => {
  it('asks for the type first, then the tier when the editor may choose it', () => {
    expect(editError({ ...EMPTY_DRAFT, paidExclusive: true }, true)).toEqual({
      message: FILE_TYPE_REQUIRED_MESSAGE,
      field: 'fileType',
    });
    expect(editError({ ...EMPTY_DRAFT, fileType: 1, paidExclusive: true }, true)).toEqual({
      message: TIER_REQUIRED_EDIT,
      field: 'tier',
    });
    expect(editError({ ...EMPTY_DRAFT, fileType: 1, paidExclusive: true }, false)).toBeNull();
  });
});

describe('draftField', () => {
  it('maps a refused field to the draft field that shows it', () => {
    expect(draftField('patreonTier')).toBe('tier');
    expect(draftField('name')).toBe('name');
    expect(draftField('uuid')).toBeUndefined();
    expect(draftField(undefined)).toBeUndefined();
  });
});

describe('request bodies', () => {
  const draft: FileDraft = {
    ...EMPTY_DRAFT,
    name: ' Drift ',
    fileType: 3,
    triggers: [{ id: 4, trains: true }],
    description: 'Calm',
    isPublic: true,
    tier: 'gold',
    trackNumber: '7',
    releaseDate: '2026-03-01',
  };

  it('creates with the tier only when paid and the track number only when allowed', () => {
    expect(createFileBody(draft, 'u-1', false)).toEqual({
      name: 'Drift',
      description: 'Calm',
      uuid: 'u-1',
      triggers: [{ id: 4, trains: true }],
      fileType: 3,
      releaseDate: '2026-03-01T00:00:00.000Z',
    });
    expect(createFileBody({ ...draft, paidExclusive: true }, 'u-1', true)).toMatchObject({
      patreonTier: 'gold',
      trackNumber: 7,
    });
  });

  it('updates with the chosen tier, or keeps the file’s own when the editor may not choose', () => {
    expect(updateFileBody(5, { ...draft, paidExclusive: true }, { mayChoose: true, keptTier: '' })).toEqual({
      id: 5,
      name: 'Drift',
      description: 'Calm',
      patreonTier: 'gold',
      triggers: [{ id: 4, trains: true }],
      fileType: 3,
      isPublic: true,
    });
    expect(updateFileBody(5, draft, { mayChoose: true, keptTier: 'gold' }).patreonTier).toBeNull();
    expect(updateFileBody(5, draft, { mayChoose: false, keptTier: 'silver' }).patreonTier).toBe('silver');
    expect(updateFileBody(5, draft, { mayChoose: false, keptTier: '' }).patreonTier).toBeNull();
  });
});
