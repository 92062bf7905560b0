/**
 * Builders and a render helper for the web app's component tests. Builders parse what they
 * build through the shared schema, and every faked response is checked against the contract.
 */
import { type AudioFile, audioFile as audioFileSchema } from '@mesmer/shared/api/files';
import { type Playlist, playlist as playlistSchema } from '@mesmer/shared/api/playlists';
import { type Trigger, trigger as triggerSchema } from '@mesmer/shared/api/triggers';
import { type SelfUser, selfUser as selfUserSchema } from '@mesmer/shared/api/users';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { onTestFinished, vi } from 'vitest';
import { currentUserQuery } from '../api/users.ts';
import { featureSlots } from '../app/feature-slots.tsx';
import { FeatureSlotsProvider } from '../library/feature-slots.tsx';
import { ToastViewport } from '../ui/index.ts';
import { contractProblem } from './api-contract.ts';

let nextId = 100;

export function audioFile(overrides: Partial<AudioFile> = {}): AudioFile {
  nextId += 1;
  return audioFileSchema.parse({
    id: nextId,
    uuid: `00000000-0000-4000-8000-${String(nextId).padStart(12, '0')}`,
    name: `Track ${nextId}`,
    description: '',
    triggers: [],
    patreonTiers: [],
    fileType: 1,
    tags: [],
    trackNumber: null,
    releaseDate: '2020-01-01T00:00:00.000Z',
    isPublic: true,
    plays: 0,
    duration: 60_000,
    audioURL: '/media/audio/x.wav',
    audioType: 'audio/wav',
    scriptURL: null,
    hapticsURL: null,
    hasHaptics: false,
    isLocked: false,
    warnings: [],
    author: { id: 9, username: 'creator', patreonName: null },
    uploaderId: 9,
    userUploaded: false,
    ...overrides,
  });
}

export function playlist(overrides: Partial<Playlist> = {}): Playlist {
  return playlistSchema.parse({
    id: 7,
    uuid: '00000000-0000-4000-8000-000000000007',
    name: 'Evening',
    description: '',
    expLevel: 1,
    isPublic: true,
    isCore: false,
    creator: { id: 9, username: 'creator' },
    dateCreated: '2020-01-01T00:00:00.000Z',
    fileIds: [],
    files: [],
    fileCount: 0,
    likes: 0,
    dislikes: 0,
    favorites: 0,
    totalDuration: 0,
    hapticsPercent: 0,
    hasPatreonFiles: false,
    warnings: [],
    triggers: [],
    ...overrides,
  });
}

export function selfUser(overrides: Partial<SelfUser> = {}): SelfUser {
  return selfUserSchema.parse({
    id: 5,
    username: 'dreamer',
    imageURL: null,
    biography: '',
    points: 0,
    streak: 0,
    roles: [],
    patreonName: null,
    triggers: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    email: 'dreamer@example.com',
    emailVerified: true,
    timezone: 'UTC',
    permissions: [],
    censorTriggers: false,
    hideLockedFiles: false,
    insightsOptOut: false,
    patreonLinked: false,
    patreonTiers: [],
    memberships: [],
    lovenseToken: null,
    lovenseSettings: { maxVibration: 50, vibrationOffset: 0 },
    ...overrides,
  });
}

export function trigger(overrides: Partial<Trigger> = {}): Trigger {
  nextId += 1;
  return triggerSchema.parse({
    id: nextId,
    uuid: `00000000-0000-4000-9000-${String(nextId).padStart(12, '0')}`,
    name: `Trigger ${nextId}`,
    description: '',
    creator: { id: 9, username: 'creator' },
    isCore: false,
    category: null,
    weight: 1,
    pending: false,
    ...overrides,
  });
}

export const json = (status: number, body: unknown) =>
  Promise.resolve(
    new Response(status === 204 ? null : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    }),
  );

/**
 * A fake fetch that answers with `impl` and notes every answer that breaks the shared response
 * schema of its call; the test fails at its end when there is any.
 */
export function contractCheckedFetch(impl: typeof fetch): typeof fetch {
  const problems: string[] = [];
  onTestFinished(() => {
    if (problems.length > 0)
      throw new Error(`Faked API responses break the contract:\n${problems.join('\n')}`);
  });
  return async (input, init) => {
    const res = await impl(input, init);
    const text = await res.clone().text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    const problem = contractProblem(init?.method ?? 'GET', String(input), res.status, body);
    if (problem) problems.push(problem);
    return res;
  };
}

/** Renders inside a router and a fresh query client, signed in as `user` (or signed out with null). */
/** The app's feature slots (app/feature-slots.tsx), for tests that build their own providers. */
export function WithFeatureSlots({ children }: { children: ReactNode }) {
  return <FeatureSlotsProvider value={featureSlots}>{children}</FeatureSlotsProvider>;
}

export function renderWithProviders(
  ui: ReactNode,
  {
    user = null,
    fetchImpl,
    at = '/',
  }: {
    user?: SelfUser | null;
    fetchImpl?: typeof fetch;
    /** The address the app starts at (path and query). */
    at?: string;
  } = {},
) {
  const fetchMock = vi.fn(contractCheckedFetch(fetchImpl ?? (() => json(404, { error: 'Not found.' }))));
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(currentUserQuery.queryKey, user);
  const wrap = (node: ReactNode) => (
    <QueryClientProvider client={client}>
      <WithFeatureSlots>
        <MemoryRouter initialEntries={[at]}>
          {node}
          <ToastViewport />
        </MemoryRouter>
      </WithFeatureSlots>
    </QueryClientProvider>
  );
  const result = render(wrap(ui));
  return { ...result, rerender: (node: ReactNode) => result.rerender(wrap(node)), client, fetch: fetchMock };
}
