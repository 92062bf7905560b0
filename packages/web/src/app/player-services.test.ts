import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileByUuidQuery } from '../api/files.ts';
import { planQuery } from '../api/plans.ts';
import { currentUserQuery } from '../api/users.ts';
import { audioFile, contractCheckedFetch, json, selfUser } from '../test/testing.tsx';
import { playerServices } from './player-services.ts';

afterEach(() => vi.unstubAllGlobals());

const plan = {
  id: 4,
  uuid: '00000000-0000-4000-8000-000000000004',
  name: 'Deepening',
  dayIndex: 1,
  dayCount: 3,
};
const series = (position: number) => ({
  id: plan.id,
  uuid: plan.uuid,
  name: plan.name,
  description: '',
  creator: { id: 9, username: 'creator' },
  playlistCount: 3,
  position,
  playlists: [],
});

function setup(impl: typeof fetch) {
  const fetchMock = vi.fn(contractCheckedFetch(impl));
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return { client, fetch: fetchMock, services: playerServices(client) };
}

const requests = (fetchMock: ReturnType<typeof vi.fn>) =>
  fetchMock.mock.calls.map(
    ([input, init]) => `${(init as RequestInit | undefined)?.method ?? 'GET'} ${input}`,
  );

describe('the services the app gives the player', () => {
  it("reads and saves plan progress through the plans feature's query and mutation", async () => {
    let position = 2;
    const { client, fetch, services } = setup(async (_input, init) => {
      if (init?.method === 'PUT') {
        position = JSON.parse(String(init.body)).playlistIndex;
        return json(200, { id: plan.id, position });
      }
      return json(200, { series: series(position) });
    });
    client.setQueryData(planQuery(plan.uuid).queryKey, series(1));

    expect(await services.planPosition(plan)).toBe(2);
    await services.savePlanPosition(plan, 3);
    expect(requests(fetch)).toEqual([
      `GET /api/series?uuid=${plan.uuid}&includePlaylists=true`,
      'PUT /api/userseries',
    ]);
    expect(JSON.parse(String(fetch.mock.calls[1][1]?.body))).toEqual({ id: plan.id, playlistIndex: 3 });
    expect(client.getQueryState(planQuery(plan.uuid).queryKey)?.isInvalidated).toBe(true);
  });

  it('fetches a file again every time (signed links expire); a 404 is a file gone', async () => {
    const file = audioFile();
    const { client, fetch, services } = setup(async (input) =>
      String(input).includes(file.uuid)
        ? json(200, { files: [file], totalItems: 1 })
        : json(404, { error: 'Not found.' }),
    );
    expect(await services.fetchFile(file.uuid)).toEqual(file);
    expect(await services.fetchFile(file.uuid)).toEqual(file);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(client.getQueryData(fileByUuidQuery(file.uuid).queryKey)).toEqual(file);
    expect(await services.fetchFile('00000000-0000-4000-8000-000000000999')).toBeNull();
  });

  it("puts a session's points and streak on the signed-in user", () => {
    const { client, services } = setup(() => json(404, { error: 'Not found.' }));
    client.setQueryData(currentUserQuery.queryKey, selfUser({ points: 3, streak: 1 }));
    expect(services.currentUser()).toMatchObject({ points: 3 });
    services.pointsEarned({ token: 't', points: 2, totalPoints: 5, streak: 2 });
    expect(client.getQueryData(currentUserQuery.queryKey)).toMatchObject({ points: 5, streak: 2 });
  });
});
