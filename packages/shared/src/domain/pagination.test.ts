import { describe, expect, it } from 'vitest';
import { commitPageInput, offsetOfPage, pageOfOffset, showPagination, totalPages } from './pagination.ts';

describe('totalPages', () => {
  it('rounds up and is at least 1', () => {
    expect(totalPages(0, 12)).toBe(1);
    expect(totalPages(1, 12)).toBe(1);
    expect(totalPages(12, 12)).toBe(1);
    expect(totalPages(13, 12)).toBe(2);
    expect(totalPages(100, 8)).toBe(13);
  });
});

describe('pageOfOffset and offsetOfPage', () => {
  it('convert between 1-based pages and item offsets', () => {
    expect(pageOfOffset(0, 12)).toBe(1);
    expect(pageOfOffset(11, 12)).toBe(1);
    expect(pageOfOffset(12, 12)).toBe(2);
    expect(offsetOfPage(1, 12)).toBe(0);
    expect(offsetOfPage(3, 8)).toBe(16);
  });

  it('are inverse for every page start', () => {
    for (let page = 1; page <= 50; page++) {
      expect(pageOfOffset(offsetOfPage(page, 16), 16)).toBe(page);
    }
  });
});

describe('showPagination', () => {
  it('shows the control only when the items exceed one page', () => {
    expect(showPagination(0, 12)).toBe(false);
    expect(showPagination(12, 12)).toBe(false);
    expect(showPagination(13, 12)).toBe(true);
  });
});

describe('commitPageInput', () => {
  it('commits a whole page number within 1..pages', () => {
    expect(commitPageInput('1', 2, 5)).toBe(1);
    expect(commitPageInput('5', 2, 5)).toBe(5);
    expect(commitPageInput(' 3 ', 2, 5)).toBe(3);
  });

  it('gives null for an empty input', () => {
    expect(commitPageInput('', 2, 5)).toBeNull();
    expect(commitPageInput('   ', 2, 5)).toBeNull();
  });

  it('resets to the current page for out-of-range or non-numeric input', () => {
    for (const input of ['0', '6', '-1', '2.5', 'abc', '1e1', '+3']) {
      expect(commitPageInput(input, 2, 5)).toBe(2);
    }
  });
});
