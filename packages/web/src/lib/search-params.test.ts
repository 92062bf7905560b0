import { describe, expect, it } from 'vitest';
import { withParams } from './search-params.ts';

describe('withParams', () => {
  it('sets the given parameters, removes empty ones and keeps the rest', () => {
    const params = new URLSearchParams('q=rain&page=3&tab=music');
    const next = withParams(params, { q: 'calm', page: null, sort: '', filters: '1' });
    expect(next.toString()).toBe('q=calm&tab=music&filters=1');
    expect(params.toString()).toBe('q=rain&page=3&tab=music');
  });
});
