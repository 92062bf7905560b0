import type { AudioFile, UploadOptions } from '@mesmer/shared/api/files';
import type { SelfUser } from '@mesmer/shared/api/users';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentUserQuery } from '../api/users.ts';
import { audioFile, contractCheckedFetch, json, selfUser, WithFeatureSlots } from '../test/testing.tsx';
import { ToastViewport } from '../ui/index.ts';
import { TrackPopup } from './TrackPopup.tsx';

afterEach(() => {
  for (const button of screen.queryAllByRole('button', { name: 'Dismiss' })) fireEvent.click(button);
  vi.unstubAllGlobals();
});

const role = (name: string) => ({ name, showBadge: true, textColor: '#fff', background: '#000' });
const uploader = selfUser({ id: 9, username: 'creator', roles: [role('Verified Creator')] });
const stranger = selfUser({ id: 5, username: 'stranger', roles: [role('Verified Creator')] });
const options: UploadOptions = {
  fileTypes: [1, 2, 3, 4, 5, 6, 7, 8, 9],
  privateOnly: false,
  canSetTrackNumber: false,
  tiers: [],
};

/** The files API for one file, as the server keeps it: PUT changes it. */
function fakeServer(initial: AudioFile) {
  let file = initial;
  const writes: { method: string; body: unknown }[] = [];
  const impl: typeof fetch = async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    if (method !== 'GET') writes.push({ method, body });
    switch (`${method} ${url.pathname}`) {
      case 'GET /api/files':
        return json(200, { files: [file], totalItems: 1 });
      case 'GET /api/files/upload-options':
        return json(200, options);
      case 'GET /api/triggers':
        return json(200, { triggers: [] });
      case 'PUT /api/files':
        file = { ...file, description: body.description, name: body.name };
        return json(200, { file });
      default:
        return json(404, { error: 'Not found.' });
    }
  };
  return { impl, writes };
}

/** The popup over a page, in a data router (the editor's unsaved-changes guard needs one). */
function renderPopup(file: AudioFile, user: SelfUser | null, server = fakeServer(file)) {
  vi.stubGlobal('fetch', vi.fn(contractCheckedFetch(server.impl)));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(currentUserQuery.queryKey, user);
  const onClose = vi.fn();
  const router = createMemoryRouter(
    [
      { path: '/playlist', element: <TrackPopup file={file} onClose={onClose} /> },
      { path: '*', element: <h1>Elsewhere</h1> },
    ],
    { initialEntries: ['/playlist'] },
  );
  render(
    <QueryClientProvider client={client}>
      <WithFeatureSlots>
        <RouterProvider router={router} />
        <ToastViewport />
      </WithFeatureSlots>
    </QueryClientProvider>,
  );
  return { server, onClose, router };
}

const listed = () =>
  audioFile({ name: 'Evening drift', description: 'Old text', fileType: 2, uploaderId: 9 });

const popup = () => screen.getByRole('dialog', { name: 'Evening drift' });

async function startEditing() {
  fireEvent.click(within(popup()).getByRole('button', { name: 'Edit' }));
  return screen.findByRole('form', { name: 'Edit file' });
}

describe('TrackPopup: file details with view and edit mode', () => {
  it('shows the details in view mode, and Edit only to those who may edit the file', () => {
    renderPopup(listed(), stranger);
    expect(within(popup()).getByRole('list', { name: 'Details' })).toBeVisible();
    expect(within(popup()).getByText('Old text')).toBeVisible();
    expect(within(popup()).queryByRole('button', { name: 'Edit' })).toBeNull();
  });

  it("opens the file page's editor in the popup, saves with PUT and shows the saved details", async () => {
    const { server, onClose } = renderPopup(listed(), uploader);
    const form = await startEditing();
    // Edits start from the file as the server has it.
    expect(within(form).getByLabelText('Name')).toHaveValue('Evening drift');
    fireEvent.change(within(form).getByLabelText('Description'), { target: { value: 'New text' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('File updated!')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit file' })).toBeNull());
    expect(within(popup()).getByText('New text')).toBeVisible();
    expect(server.writes).toEqual([
      {
        method: 'PUT',
        body: expect.objectContaining({ name: 'Evening drift', description: 'New text', fileType: 2 }),
      },
    ]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it("asks 'Unsaved changes' before Cancel leaves edit mode, and Exit goes back to view mode", async () => {
    const { server, onClose } = renderPopup(listed(), uploader);
    const form = await startEditing();
    fireEvent.change(within(form).getByLabelText('Description'), { target: { value: 'Half done' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    const ask = screen.getByRole('dialog', { name: 'Unsaved changes' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull();
    expect(within(form).getByLabelText('Description')).toHaveValue('Half done');

    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Exit' }),
    );
    expect(screen.queryByRole('form', { name: 'Edit file' })).toBeNull();
    expect(within(popup()).getByText('Old text')).toBeVisible();
    expect(onClose).not.toHaveBeenCalled();
    expect(server.writes).toEqual([]);
  });

  it("asks 'Unsaved changes' before Escape or the close button closes the popup while editing", async () => {
    const { onClose } = renderPopup(listed(), uploader);
    const form = await startEditing();
    fireEvent.change(within(form).getByLabelText('Description'), { target: { value: 'Half done' } });

    fireEvent.keyDown(document, { key: 'Escape' });
    const ask = screen.getByRole('dialog', { name: 'Unsaved changes' });
    // Escape answers the topmost popup only: the question, not the track popup under it.
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull();
    expect(ask).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();

    fireEvent.click(within(popup()).getByRole('button', { name: 'Close' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Exit' }),
    );
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes at once while editing when nothing changed', async () => {
    const { onClose } = renderPopup(listed(), uploader);
    await startEditing();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull();
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
