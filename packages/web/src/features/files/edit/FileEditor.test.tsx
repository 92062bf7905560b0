import type { AudioFile, FileWaveform, UploadOptions } from '@mesmer/shared/api/files';
import type { SelfUser } from '@mesmer/shared/api/users';
import { FILE_TYPE_REQUIRED_MESSAGE } from '@mesmer/shared/domain/file-rules';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentUserQuery } from '../../../api/users.ts';
import {
  audioFile,
  contractCheckedFetch,
  json,
  selfUser,
  trigger,
  WithFeatureSlots,
} from '../../../test/testing.tsx';
import { ToastViewport } from '../../../ui/index.ts';
import FilePage from '../FilePage.tsx';

afterEach(() => vi.unstubAllGlobals());

const role = (name: string) => ({ name, showBadge: true, textColor: '#fff', background: '#000' });
const creator = selfUser({ id: 9, username: 'creator', roles: [role('Verified Creator')] });
const moderator = selfUser({ id: 4, username: 'mod', roles: [role('Moderator')] });
const stranger = selfUser({ id: 5, username: 'stranger', roles: [role('Verified Creator')] });
const deep = trigger({ name: 'Deep' });
const sleep = trigger({ name: 'Sleep' });
const requested = trigger({ name: 'Requested', pending: true });
const tiers = [
  { id: 'tier-1', name: 'Bronze', rank: 1 },
  { id: 'tier-2', name: 'Silver', rank: 2 },
];

const allTypes: UploadOptions = {
  fileTypes: [1, 2, 3, 4, 5, 6, 7, 8, 9],
  privateOnly: false,
  canSetTrackNumber: false,
  tiers: [],
};

interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/**
 * A stateful fake of the files API for one file: PUT changes it, attachments set its haptics and
 * script. `answers` overrides a call ('POST /api/files/attachment') with a fixed response.
 */
function fakeServer(
  initial: AudioFile,
  {
    options = allTypes,
    waveform = { peaks: [], loudness: null },
    answers = {},
  }: { options?: UploadOptions; waveform?: FileWaveform; answers?: Record<string, [number, unknown]> } = {},
) {
  let file = initial;
  const calls: Call[] = [];
  const impl: typeof fetch = async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body =
      init?.body instanceof FormData
        ? Object.fromEntries(init.body.entries())
        : init?.body
          ? JSON.parse(String(init.body))
          : undefined;
    calls.push({ method, path: url.pathname, query: url.searchParams, body });
    const key = `${method} ${url.pathname}`;
    const fixed = answers[key];
    if (fixed) return json(...fixed);
    switch (key) {
      case 'GET /api/files':
        return json(200, { files: [file], totalItems: 1 });
      case 'GET /api/files/waveform':
        return json(200, waveform);
      case 'GET /api/files/upload-options':
        return json(200, options);
      case 'GET /api/triggers':
        return json(200, { triggers: [deep, sleep, requested] });
      case 'PUT /api/files': {
        const b = body as Record<string, unknown> & { triggers: { id: number; trains: boolean }[] };
        file = {
          ...file,
          name: String(b.name),
          description: String(b.description),
          fileType: Number(b.fileType),
          isPublic: Boolean(b.isPublic),
          triggers: b.triggers.map((t) => {
            const found = [deep, sleep].find((x) => x.id === t.id);
            return { id: t.id, uuid: found?.uuid ?? '', name: found?.name ?? '', trains: t.trains };
          }),
          patreonTiers: tiers.filter((t) => t.id === b.patreonTier),
        };
        return json(200, { file });
      }
      case 'DELETE /api/files':
        return json(204, null);
      case 'POST /api/files/attachment': {
        const kind = (body as { kind: string }).kind;
        file =
          kind === 'script'
            ? { ...file, scriptURL: '/media/script/x.txt' }
            : { ...file, hasHaptics: true, hapticsURL: '/media/haptics/x.json' };
        return json(200, { file });
      }
      case 'DELETE /api/files/attachment':
        file =
          url.searchParams.get('kind') === 'script'
            ? { ...file, scriptURL: null }
            : { ...file, hasHaptics: false, hapticsURL: null };
        return json(204, null);
      default:
        return json(404, { error: 'Not found.' });
    }
  };
  return { impl, calls, writes: () => calls.filter((c) => c.method !== 'GET') };
}

/** The file page in a data router (the unsaved-changes guard needs one), signed in as `user`. */
function renderPage(file: AudioFile, user: SelfUser | null, server: ReturnType<typeof fakeServer>) {
  vi.stubGlobal('fetch', vi.fn(contractCheckedFetch(server.impl)));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(currentUserQuery.queryKey, user);
  const router = createMemoryRouter(
    [
      { path: '/file/:uuid', element: <FilePage /> },
      { path: '/files', element: <h1>My files</h1> },
      { path: '/elsewhere', element: <h1>Elsewhere</h1> },
    ],
    { initialEntries: [`/file/${file.uuid}`] },
  );
  render(
    <QueryClientProvider client={client}>
      <WithFeatureSlots>
        <RouterProvider router={router} />
        <ToastViewport />
      </WithFeatureSlots>
    </QueryClientProvider>,
  );
  return router;
}

const ownFile = () =>
  audioFile({
    name: 'Evening drift',
    description: 'Old text',
    fileType: 2,
    uploaderId: 9,
    triggers: [{ id: deep.id, uuid: deep.uuid, name: deep.name, trains: true }],
  });

async function startEditing() {
  fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
  return screen.findByRole('form', { name: 'Edit file' });
}

describe('FilePage: who sees Edit', () => {
  it.each([
    { who: 'the uploader', user: creator, shown: true },
    { who: 'a WRITE_ALL_FILES holder', user: moderator, shown: true },
    { who: 'another creator', user: stranger, shown: false },
    { who: 'a visitor', user: null, shown: false },
  ])('$who: Edit shown = $shown', async ({ user, shown }) => {
    const file = ownFile();
    renderPage(file, user, fakeServer(file));
    expect(await screen.findByRole('heading', { name: 'Evening drift' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' }) !== null).toBe(shown);
  });
});

describe('FilePage edit mode: saving', () => {
  it('saves the changed fields with PUT, returns to view mode with a toast and shows the new values', async () => {
    const file = ownFile();
    const server = fakeServer(file);
    renderPage(file, creator, server);
    const form = await startEditing();
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: '  Morning drift ' } });
    fireEvent.change(within(form).getByLabelText('File type'), { target: { value: '5' } });
    fireEvent.change(within(form).getByLabelText('Description'), { target: { value: 'New text' } });
    const addTrigger = await within(form).findByLabelText('Add a trigger');
    // A pending trigger request is not offered: the server links published triggers only.
    expect(within(addTrigger).queryByRole('option', { name: 'Requested' })).toBeNull();
    fireEvent.change(addTrigger, { target: { value: String(sleep.id) } });
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Trains Deep' }));
    fireEvent.click(within(form).getByRole('switch', { name: 'Public' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('File updated!')).toBeInTheDocument();
    expect(server.writes()).toEqual([
      {
        method: 'PUT',
        path: '/api/files',
        query: expect.anything(),
        body: {
          id: file.id,
          name: 'Morning drift',
          description: 'New text',
          patreonTier: null,
          triggers: [
            { id: deep.id, trains: false },
            { id: sleep.id, trains: false },
          ],
          fileType: 5,
          isPublic: false,
        },
      },
    ]);
    expect(screen.queryByRole('form', { name: 'Edit file' })).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Morning drift' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
  });

  it("refuses to save without a file type: 'The file type tag must be set.' and nothing sent", async () => {
    const file = ownFile();
    const server = fakeServer(file);
    renderPage(file, creator, server);
    const form = await startEditing();
    fireEvent.change(within(form).getByLabelText('File type'), { target: { value: '0' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(FILE_TYPE_REQUIRED_MESSAGE);
    expect(within(form).getByLabelText('File type')).toHaveAttribute('aria-invalid', 'true');
    expect(server.writes()).toEqual([]);
  });

  it("shows the server's refusal and stays in edit mode", async () => {
    const file = ownFile();
    const server = fakeServer(file, {
      answers: { 'PUT /api/files': [403, { error: 'Music creators may publish only music files.' }] },
    });
    renderPage(file, creator, server);
    const form = await startEditing();
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Music creators may publish only music files.',
    );
    expect(screen.getByRole('form', { name: 'Edit file' })).toBeInTheDocument();
  });

  it('marks the field a 400 names and clears the mark when it changes', async () => {
    const file = ownFile();
    const server = fakeServer(file, {
      answers: { 'PUT /api/files': [400, { error: 'name: is required', field: 'name' }] },
    });
    renderPage(file, creator, server);
    const form = await startEditing();
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(/^name: is required$/);
    expect(within(form).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Fixed' } });
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('offers a music creator only music types (and the file type it has)', async () => {
    const file = ownFile();
    const music = selfUser({ id: 9, roles: [role('Music Creator')] });
    renderPage(file, music, fakeServer(file));
    const form = await startEditing();
    const options = within(within(form).getByLabelText('File type')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['File type...', 'Deepener', 'Music', 'AI music']);
  });
});

describe('FilePage edit mode: the membership tier', () => {
  it('lets the uploader with tiers make the file paid-exclusive, and requires a tier', async () => {
    const file = ownFile();
    const server = fakeServer(file, {
      options: { ...allTypes, tiers },
    });
    renderPage(file, creator, server);
    const form = await startEditing();
    fireEvent.click(await within(form).findByRole('switch', { name: 'Paid exclusive' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Choose the minimum tier');
    expect(server.writes()).toEqual([]);

    fireEvent.change(within(form).getByLabelText('Minimum tier'), { target: { value: 'tier-2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit file' })).not.toBeInTheDocument());
    expect(server.writes()[0]?.body).toMatchObject({ patreonTier: 'tier-2' });
  });

  it('keeps the tier of a non-uploader edit and does not offer it', async () => {
    const file = { ...ownFile(), patreonTiers: [tiers[1] as (typeof tiers)[number]] };
    const server = fakeServer(file, {
      answers: { 'GET /api/files/upload-options': [403, { error: 'You may not upload files.' }] },
    });
    renderPage(file, moderator, server);
    const form = await startEditing();
    expect(within(form).queryByRole('switch', { name: 'Paid exclusive' })).not.toBeInTheDocument();
    expect(within(form).getByText(/Paid exclusive \(Silver\)/)).toBeInTheDocument();
    fireEvent.change(within(form).getByLabelText('Description'), { target: { value: 'Fixed' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit file' })).not.toBeInTheDocument());
    expect(server.writes()[0]?.body).toMatchObject({ patreonTier: 'tier-2', description: 'Fixed' });
  });
});

describe('FilePage edit mode: unsaved changes', () => {
  it('Cancel without changes leaves edit mode at once', async () => {
    const file = ownFile();
    renderPage(file, creator, fakeServer(file));
    const form = await startEditing();
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Edit file' })).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("Cancel with changes asks 'Unsaved changes': Cancel keeps editing, Exit drops the changes", async () => {
    const file = ownFile();
    const server = fakeServer(file);
    renderPage(file, creator, server);
    const form = await startEditing();
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Changed' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    let dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByLabelText('Name')).toHaveValue('Changed');

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Exit' }));
    expect(await screen.findByRole('heading', { name: 'Evening drift' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Edit file' })).not.toBeInTheDocument();
    expect(server.writes()).toEqual([]);
  });

  it('holds navigation to another page while changes are unsaved, until Exit', async () => {
    const file = ownFile();
    const router = renderPage(file, creator, fakeServer(file));
    const form = await startEditing();
    fireEvent.change(within(form).getByLabelText('Description'), { target: { value: 'Half done' } });
    await act(() => router.navigate('/elsewhere'));
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    expect(router.state.location.pathname).toBe(`/file/${file.uuid}`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByLabelText('Description')).toHaveValue('Half done');

    await act(() => router.navigate('/elsewhere'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Exit' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere' })).toBeInTheDocument();
  });

  it('lets navigation through when nothing changed', async () => {
    const file = ownFile();
    const router = renderPage(file, creator, fakeServer(file));
    await startEditing();
    await act(() => router.navigate('/elsewhere'));
    expect(await screen.findByRole('heading', { name: 'Elsewhere' })).toBeInTheDocument();
  });
});

describe('FilePage edit mode: delete', () => {
  it('deletes after confirmation, then goes to My Files with a toast (even with unsaved changes)', async () => {
    const file = ownFile();
    const server = fakeServer(file);
    renderPage(file, creator, server);
    const form = await startEditing();
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Unsaved' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Delete file' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete file?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('heading', { name: 'My files' })).toBeInTheDocument();
    expect(screen.getByText('File deleted!')).toBeInTheDocument();
    expect(server.writes().map((c) => [c.method, c.path, c.query.get('id')])).toEqual([
      ['DELETE', '/api/files', String(file.id)],
    ]);
  });

  it('sends nothing when the confirmation is cancelled', async () => {
    const file = ownFile();
    const server = fakeServer(file);
    renderPage(file, creator, server);
    const form = await startEditing();
    fireEvent.click(within(form).getByRole('button', { name: 'Delete file' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete file?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.writes()).toEqual([]);
  });
});

describe('FilePage edit mode: attachments', () => {
  const upload = (label: string, name: string, content = '[]') =>
    fireEvent.change(screen.getByLabelText(label, { selector: 'input' }), {
      target: { files: [new File([content], name)] },
    });

  it('attaches a Funscript (multipart fileId, kind, file) and then shows haptics; removes them again', async () => {
    const file = ownFile();
    const server = fakeServer(file);
    renderPage(file, creator, server);
    await startEditing();
    expect(screen.getByText('No haptics')).toBeInTheDocument();
    upload('Upload Funscript (.funscript)', 'drift.funscript', '{"actions":[]}');
    expect(await screen.findByText('Haptics attached')).toBeInTheDocument();
    const [post] = server.writes();
    expect(post?.path).toBe('/api/files/attachment');
    expect(post?.body).toMatchObject({ fileId: String(file.id), kind: 'funscript' });
    expect((post?.body as { file: File } | undefined)?.file.name).toBe('drift.funscript');

    fireEvent.click(screen.getByRole('button', { name: 'Remove haptics' }));
    expect(await screen.findByText('No haptics')).toBeInTheDocument();
    const removal = server.writes()[1];
    expect([removal?.method, removal?.query.get('fileId'), removal?.query.get('kind')]).toEqual([
      'DELETE',
      String(file.id),
      'haptics',
    ]);
  });

  it('attaches a script and a cue file', async () => {
    const file = ownFile();
    const server = fakeServer(file);
    renderPage(file, creator, server);
    await startEditing();
    upload('Upload script (.txt)', 'words.txt', 'Relax.');
    expect(await screen.findByText('Script attached')).toBeInTheDocument();
    upload('Upload cue file (.json)', 'cues.json', '[{"time":0,"stopTime":100,"strength":1}]');
    expect(await screen.findByText('Haptics attached')).toBeInTheDocument();
    expect(server.writes().map((c) => (c.body as { kind: string }).kind)).toEqual(['script', 'haptics']);
  });

  it("shows the server's validation error under the row it belongs to, without the field name", async () => {
    const file = ownFile();
    const server = fakeServer(file, {
      answers: {
        'POST /api/files/attachment': [400, { error: 'file: Cue 3: stopTime must be a number after time.' }],
      },
    });
    renderPage(file, creator, server);
    await startEditing();
    upload('Upload cue file (.json)', 'cues.json');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^Cue 3: stopTime must be a number after time\.$/,
    );
    expect(screen.getByText('No haptics')).toBeInTheDocument();
  });

  it('refuses an attachment over 5 MB before sending it', async () => {
    const file = ownFile();
    const server = fakeServer(file);
    renderPage(file, creator, server);
    await startEditing();
    upload('Upload script (.txt)', 'big.txt', 'x'.repeat(5_000_001));
    expect(await screen.findByRole('alert')).toHaveTextContent('An attachment may be at most 5 MB.');
    expect(server.writes()).toEqual([]);
  });
});

describe('FilePage: waveform and loudness', () => {
  it('draws the stored peaks and shows the loudness', async () => {
    const file = ownFile();
    renderPage(file, null, fakeServer(file, { waveform: { peaks: [0.1, 0.5, 1, 0.2], loudness: -14.24 } }));
    expect(await screen.findByRole('img', { name: 'Waveform' })).toBeInTheDocument();
    expect(screen.getByText('Loudness: -14.2 LUFS')).toBeInTheDocument();
  });

  it('shows neither before the file is analysed', async () => {
    const file = ownFile();
    renderPage(file, null, fakeServer(file));
    await screen.findByRole('heading', { name: 'Evening drift' });
    await waitFor(() => expect(screen.queryByText(/Loudness/)).not.toBeInTheDocument());
    expect(screen.queryByRole('img', { name: /Waveform/ })).not.toBeInTheDocument();
  });
});
