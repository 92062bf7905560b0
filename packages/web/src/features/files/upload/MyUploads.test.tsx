import type { UploadStatus } from '@mesmer/shared/api/uploads';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, selfUser } from '../../../test/testing.tsx';
import { accepted, fakeUploadXhr, uploadOptions } from '../../../test/upload-fakes.ts';
import { MyUploads } from './MyUploads.tsx';

afterEach(() => vi.unstubAllGlobals());

function upload(overrides: Partial<UploadStatus>): UploadStatus {
  return {
    uuid: '44444444-4444-4444-8444-444444444444',
    fileName: 'Deep.wav',
    state: 'receiving',
    totalChunks: 3,
    receivedChunks: [0],
    error: null,
    duration: null,
    audioType: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const receiving = upload({});
const processing = upload({
  uuid: '55555555-5555-4555-8555-555555555555',
  fileName: 'Busy.mp3',
  state: 'processing',
});
const ready = upload({
  uuid: '66666666-6666-4666-8666-666666666666',
  fileName: 'Done.flac',
  state: 'ready',
  receivedChunks: [0],
  totalChunks: 1,
});
const failed = upload({
  uuid: '77777777-7777-4777-8777-777777777777',
  fileName: 'Broken.m4a',
  state: 'failed',
  error: 'The file is truncated.',
});

function api(list: UploadStatus[]) {
  let uploads = list;
  return (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (url === '/api/files/uploads') return json(200, { uploads });
    if (url.startsWith('/api/files/upload?') && method === 'DELETE') {
      const uuid = new URL(url, 'http://x').searchParams.get('uuid');
      uploads = uploads.filter((u) => u.uuid !== uuid);
      return json(204, null);
    }
    if (url === '/api/files/upload-options') return json(200, uploadOptions());
    if (url === '/api/triggers') return json(200, { triggers: [] });
    if (url === '/api/files' && method === 'POST') return json(200, { id: 91 });
    return json(404, { error: 'Not found.' });
  };
}

const user = selfUser({ permissions: ['UPLOAD_ALL_FILES'] });

describe('MyUploads', () => {
  it('lists unfinished uploads with their state and actions', async () => {
    renderWithProviders(<MyUploads />, { user, fetchImpl: api([receiving, processing, ready, failed]) });
    const list = await screen.findByRole('list', { name: 'Unfinished uploads' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      'Deep.wavReceiving: 1 of 3 chunks receivedResumeCancel',
      'Busy.mp3 Processing',
      'Done.flacReady: add its details to publish itFinishCancel',
      'Broken.m4aFailed: The file is truncated.Cancel',
    ]);
    expect(screen.getByRole('button', { name: 'Upload a file' })).toBeInTheDocument();
  });

  it('cancels an upload and lists the rest', async () => {
    const { fetch } = renderWithProviders(<MyUploads />, { user, fetchImpl: api([receiving, failed]) });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel Broken.m4a' }));
    await waitFor(() => expect(screen.queryByText('Broken.m4a')).not.toBeInTheDocument());
    expect(fetch).toHaveBeenCalledWith(
      `/api/files/upload?uuid=${failed.uuid}`,
      expect.objectContaining({ method: 'DELETE' }),
    );
    expect(screen.getByText('Upload cancelled.')).toBeInTheDocument();
    expect(screen.getByText('Deep.wav')).toBeInTheDocument();
  });

  it('Resume asks for the file again; Finish opens the form of a ready upload', async () => {
    fakeUploadXhr(accepted);
    const { fetch } = renderWithProviders(<MyUploads />, { user, fetchImpl: api([receiving, ready]) });
    fireEvent.click(await screen.findByRole('button', { name: 'Resume Deep.wav' }));
    const dialog = screen.getByRole('dialog', { name: 'Upload a file' });
    expect(within(dialog).getByText(/Choose “Deep.wav” again to resume/)).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));

    fireEvent.click(screen.getByRole('button', { name: 'Finish Done.flac' }));
    const form = await screen.findByRole('form', { name: 'File details' });
    expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveValue('Done');
    fireEvent.change(within(form).getByRole('combobox', { name: 'File type' }), { target: { value: '2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save file' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const create = fetch.mock.calls.find(([url]) => url === '/api/files');
    expect(JSON.parse(String(create?.[1]?.body))).toEqual({
      name: 'Done',
      description: '',
      uuid: ready.uuid,
      triggers: [],
      fileType: 2,
    });
  });
});
