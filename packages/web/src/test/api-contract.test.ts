import { describe, expect, it } from 'vitest';
import { contractProblem } from './api-contract.ts';
import { contractCheckedFetch, json, playlist, selfUser } from './testing.tsx';

describe('faked API responses against the shared schemas', () => {
  it('accepts a response that keeps the contract, and any error as { error }', () => {
    expect(
      contractProblem('GET', '/api/playlists?core=true', 200, { playlists: [playlist()], totalItems: 1 }),
    ).toBeNull();
    expect(contractProblem('GET', '/api/user', 200, { user: selfUser() })).toBeNull();
    expect(contractProblem('PUT', '/api/playlist/user', 500, { error: 'no' })).toBeNull();
    expect(contractProblem('DELETE', '/api/playlist?id=3', 204, null)).toBeNull();
  });

  it('names the call and the field a fake gets wrong', () => {
    expect(contractProblem('GET', '/api/playlist/user?id=7', 200, { id: 7, isLiked: 'yes' })).toMatch(
      /^GET \/api\/playlist\/user 200: isLiked: .*isDisliked: /,
    );
    expect(contractProblem('PUT', '/api/user', 400, { message: 'bad' })).toMatch(
      /^PUT \/api\/user 400: error: /,
    );
  });

  it('refuses calls the route contract does not declare', () => {
    expect(contractProblem('GET', '/api/nowhere', 200, {})).toBe(
      'GET /api/nowhere: not in the route contract (packages/shared/src/api)',
    );
    expect(contractProblem('PATCH', '/api/playlists', 200, {})).toBe(
      'PATCH /api/playlists: not in the route contract (packages/shared/src/api)',
    );
  });

  it('checks each status against its own schema from the contract', () => {
    expect(contractProblem('POST', '/api/playlists', 200, { id: 3, uuid: 'u' })).toBe(
      'POST /api/playlists: answers 200, which its route does not declare',
    );
    expect(contractProblem('POST', '/api/playlists', 201, { id: 3, uuid: 'u' })).toBeNull();
    expect(contractProblem('POST', '/api/reset_password', 200, { message: 'Sent.' })).toBeNull();
    expect(contractProblem('POST', '/api/reset_password', 204, null)).toBeNull();
    expect(contractProblem('POST', '/api/reset_password', 200, null)).toMatch(
      /^POST \/api\/reset_password 200: \(body\): /,
    );
  });

  it.fails('fails the test whose fake breaks the contract', async () => {
    const fetch = contractCheckedFetch(() => json(200, { playlists: 'none' }));
    await fetch('/api/playlists');
  });
});

describe('fixture builders', () => {
  it('refuse overrides the shared schema refuses', () => {
    expect(() => playlist({ likes: -1.5 })).toThrow();
    expect(() => selfUser({ email: 42 as unknown as string })).toThrow();
  });
});
