import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { audioFile, json, playlist, renderWithProviders, selfUser } from '../../test/testing.tsx';
import { accepted, fakeUploadXhr, uploadOptions } from '../../test/upload-fakes.ts';
import PlaylistPage from './PlaylistPage.tsx';

afterEach(() => vi.unstubAllGlobals());

const creator = selfUser({
  id: 5,
  roles: [{ name: 'Verified Creator', showBadge: true, textColor: '#fff', background: '#000' }],
  permissions: ['UPLOAD_ALL_FILES'],
});
const first = audioFile({ name: 'Opening' });
const second = audioFile({ name: 'Middle' });
const uploaded = audioFile({ id: 321, name: 'Fresh Upload' });
const own = playlist({
  id: 7,
  creator: { id: 5, username: 'dreamer' },
  fileIds: [first.id, second.id],
  files: [
    { ...first, disabled: false },
    { ...second, disabled: true },
  ],
});
const userInfo = {
  id: 7,
  isLiked: false,
  isDisliked: false,
  isFavorite: false,
  likes: 0,
  dislikes: 0,
  likeRatio: 0,
};

describe('PlaylistPage editor: upload a new file', () => {
  it('uploads through the dialog and appends the new file to the playlist', async () => {
    fakeUploadXhr(accepted);
    const saved: unknown[] = [];
    const { fetch } = renderWithProviders(<PlaylistPage />, {
      user: creator,
      fetchImpl: (input, init) => {
        const { pathname } = new URL(String(input), 'http://localhost');
        const method = init?.method ?? 'GET';
        if (pathname === '/api/playlists' && method === 'PUT') {
          saved.push(JSON.parse(String(init?.body)));
          return json(200, {
            playlist: {
              ...own,
              fileIds: [...own.fileIds, uploaded.id],
              files: [...own.files, { ...uploaded, disabled: false }],
            },
          });
        }
        if (pathname === '/api/playlists') return json(200, { playlists: [own], totalItems: 1 });
        if (pathname === '/api/playlist/user') return json(200, userInfo);
        if (pathname === '/api/files/upload-options') return json(200, uploadOptions());
        if (pathname === '/api/triggers') return json(200, { triggers: [] });
        if (pathname === '/api/files/upload') return json(404, { error: 'Upload not found.' });
        if (pathname === '/api/files' && method === 'POST') return json(200, { id: uploaded.id });
        return json(200, { files: [], totalItems: 0 });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: /Edit/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Upload a new file' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload a file' });
    fireEvent.change(within(dialog).getByLabelText('Audio file'), {
      target: { files: [new File(['abc'], 'Fresh Upload.mp3')] },
    });
    await within(dialog).findByText('Upload complete. Fill in the details and save the file.');
    fireEvent.change(await within(dialog).findByRole('combobox', { name: 'File type' }), {
      target: { value: '3' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save file' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(saved).toEqual([
      { id: 7, fileIds: [first.id, second.id, uploaded.id], disabledFileIds: [second.id] },
    ]);
    expect(fetch.mock.calls.filter(([url]) => url === '/api/files').length).toBe(1);
    expect(screen.getByText('Added to playlist!')).toBeInTheDocument();
    // The draft shows it at the end, so a later Save keeps it.
    expect(
      within(screen.getByRole('list', { name: 'Playlist files' })).getByText('Fresh Upload'),
    ).toBeInTheDocument();
  });
});
