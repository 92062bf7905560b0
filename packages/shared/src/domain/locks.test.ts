import { describe, expect, it } from 'vitest';
import { entitledTierIds, isFileLocked, isFileVisible, type LockViewer } from './locks.ts';

const tiers = [
  { id: 'a1', creatorName: 'Luna', rank: 1 },
  { id: 'a2', creatorName: 'Luna', rank: 2 },
  { id: 'a3', creatorName: 'Luna', rank: 3 },
  { id: 'b1', creatorName: 'Velvet', rank: 1 },
];

describe('entitledTierIds', () => {
  it('is empty without active memberships', () => {
    expect(entitledTierIds([], tiers)).toEqual(new Set());
  });

  it('unlocks the held tier and lower ranks of the same creator only', () => {
    expect(entitledTierIds([tiers[1]], tiers)).toEqual(new Set(['a1', 'a2']));
  });

  it('joins several memberships', () => {
    expect(entitledTierIds([tiers[0], tiers[3]], tiers)).toEqual(new Set(['a1', 'b1']));
  });
});

describe('isFileLocked', () => {
  const anonymous: LockViewer = { id: null, readsAllFiles: false, entitledTierIds: new Set() };
  const member: LockViewer = { id: 5, readsAllFiles: false, entitledTierIds: new Set(['a1', 'a2']) };
  const file = (requiredTierIds: string[]) => ({ requiredTierIds, uploaderId: 2, authorId: 3 });

  it('never locks a file without tiers', () => {
    expect(isFileLocked(file([]), anonymous)).toBe(false);
  });

  it('locks a tiered file for anonymous viewers', () => {
    expect(isFileLocked(file(['a1']), anonymous)).toBe(true);
  });

  it('unlocks with any one entitled tier', () => {
    expect(isFileLocked(file(['a2', 'b1']), member)).toBe(false);
    expect(isFileLocked(file(['a3']), member)).toBe(true);
    expect(isFileLocked(file(['b1']), member)).toBe(true);
  });

  it('never locks for the uploader, the author or a reader of all files', () => {
    expect(isFileLocked(file(['a3']), { ...anonymous, id: 2 })).toBe(false);
    expect(isFileLocked(file(['a3']), { ...anonymous, id: 3 })).toBe(false);
    expect(isFileLocked(file(['a3']), { ...anonymous, readsAllFiles: true })).toBe(false);
  });
});

describe('isFileVisible', () => {
  const privateFile = { isPublic: false, uploaderId: 2, authorId: 3 };

  it('shows public files to everyone', () => {
    expect(isFileVisible({ ...privateFile, isPublic: true }, { id: null, readsAllFiles: false })).toBe(true);
  });

  it('shows private files only to their uploader, author or a reader of all files', () => {
    expect(isFileVisible(privateFile, { id: null, readsAllFiles: false })).toBe(false);
    expect(isFileVisible(privateFile, { id: 9, readsAllFiles: false })).toBe(false);
    expect(isFileVisible(privateFile, { id: 2, readsAllFiles: false })).toBe(true);
    expect(isFileVisible(privateFile, { id: 3, readsAllFiles: false })).toBe(true);
    expect(isFileVisible(privateFile, { id: 9, readsAllFiles: true })).toBe(true);
  });
});
