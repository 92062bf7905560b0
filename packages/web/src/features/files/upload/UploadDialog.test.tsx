import { UPLOAD_CHUNK_BYTES, UPLOAD_TOO_LARGE_MESSAGE } from '@mesmer/shared/domain/upload-limits';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, selfUser, trigger } from '../../../test/testing.tsx';
import { accepted, fakeUploadXhr, uploadOptions } from '../../../test/upload-fakes.ts';
import { UploadDialog } from './UploadDialog.tsx';

afterEach(() => vi.unstubAllGlobals());

const creator = selfUser({
  id: 12,
  roles: [{ name: 'Verified Creator', showBadge: true, textColor: '#fff', background: '#000' }],
  permissions: ['UPLOAD_ALL_FILES'],
});
const sleepy = trigger({ name: 'Sleepy' });

/** The dialog's other calls: upload options, triggers, status (none known) and POST /api/files. */
function api(options = uploadOptions(), create: () => Promise<Response> = () => json(200, { id: 55 })) {
  return (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (url === '/api/files/upload-options') return json(200, options);
    if (url === '/api/triggers') return json(200, { triggers: [sleepy] });
    if (url.startsWith('/api/files/upload?')) return json(404, { error: 'Upload not found.' });
    if (url === '/api/files' && method === 'POST') return create();
    return json(404, { error: 'Not found.' });
  };
}

const audio = (name = 'Night Walk.mp3', bytes = 'abc') =>
  new File([bytes], name, { lastModified: 1_700_000_000_000 });
const picker = () => screen.getByLabelText('Audio file');
const dropZone = () => screen.getByTestId('upload-drop-zone');

function renderDialog(fetchImpl = api(), props: Partial<Parameters<typeof UploadDialog>[0]> = {}) {
  const onClose = vi.fn();
  const result = renderWithProviders(<UploadDialog open onClose={onClose} {...props} />, {
    user: creator,
    fetchImpl,
  });
  return { ...result, onClose };
}

describe('UploadDialog drop zone', () => {
  it('takes one file at a time', () => {
    const sent = fakeUploadXhr(accepted);
    renderDialog();
    fireEvent.drop(dropZone(), { dataTransfer: { files: [audio('a.mp3'), audio('b.mp3')] } });
    expect(screen.getByRole('alert')).toHaveTextContent('Only one file can be uploaded at a time.');
    expect(sent).toEqual([]);
  });

  it('refuses a file over 350 MB before sending anything', () => {
    const sent = fakeUploadXhr(accepted);
    renderDialog();
    const big = audio('big.wav');
    Object.defineProperty(big, 'size', { value: 351_000_000 });
    fireEvent.change(picker(), { target: { files: [big] } });
    expect(screen.getByRole('alert')).toHaveTextContent('The max file size is 350 MB.');
    expect(sent).toEqual([]);
  });

  it('accepts only mp3, m4a, wav and flac names', () => {
    fakeUploadXhr(accepted);
    renderDialog();
    expect(picker()).toHaveAttribute('accept', '.mp3,.m4a,.wav,.flac');
    fireEvent.change(picker(), { target: { files: [audio('notes.txt')] } });
    expect(screen.getByRole('alert')).toHaveTextContent('Only mp3, m4a, wav and flac files can be uploaded.');
  });
});

describe('UploadDialog upload', () => {
  it('shows byte progress, then Processing, then sends the form and closes', async () => {
    let release: (() => void) | undefined;
    const sent = fakeUploadXhr((call) =>
      call.hasChunk
        ? new Promise((resolve) => {
            release = () => resolve(accepted(call));
          })
        : accepted(call),
    );
    const { fetch, onClose } = renderDialog(api(uploadOptions({ fileTypes: [7, 9] })));
    fireEvent.change(picker(), { target: { files: [audio('Night Walk.mp3', 'x'.repeat(2000))] } });

    const bar = await screen.findByRole('progressbar', { name: 'Upload progress' });
    await waitFor(() => expect(bar).toHaveAttribute('value', '1000'));
    expect(bar).toHaveAttribute('max', '2000');
    expect(screen.getByText('1 kB of 2 kB')).toBeInTheDocument();
    expect(screen.getByText('50%')).toBeInTheDocument();
    // The name is prefilled from the file's name; only the allowed types are offered.
    expect(await screen.findByRole('textbox', { name: 'Name' })).toHaveValue('Night Walk');
    const type = screen.getByRole('combobox', { name: 'File type' });
    expect(
      within(type)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['File type...', 'Music', 'AI music']);
    release?.();
    await screen.findByText('Upload complete. Fill in the details and save the file.');
    expect(sent.map((c) => [c.fields.chunkIndex, c.hasChunk])).toEqual([
      [0, true],
      [0, false],
    ]);

    fireEvent.change(type, { target: { value: '9' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Add a trigger' }), {
      target: { value: String(sleepy.id) },
    });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Trains Sleepy' }));
    fireEvent.change(screen.getByRole('textbox', { name: /Description/ }), { target: { value: 'Calm.' } });
    fireEvent.change(screen.getByLabelText(/Release date/), { target: { value: '2026-03-04' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save file' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const create = fetch.mock.calls.find(([url, init]) => url === '/api/files' && init?.method === 'POST');
    expect(JSON.parse(String(create?.[1]?.body))).toEqual({
      name: 'Night Walk',
      description: 'Calm.',
      uuid: sent[0].fields.uuid,
      triggers: [{ id: sleepy.id, trains: true }],
      fileType: 9,
      releaseDate: '2026-03-04T00:00:00.000Z',
    });
    expect(screen.getByText('File uploaded!')).toBeInTheDocument();
  });

  it('shows Processing after the last chunk', async () => {
    fakeUploadXhr((call) => (call.hasChunk ? accepted(call) : new Promise(() => {})));
    renderDialog();
    fireEvent.change(picker(), { target: { files: [audio()] } });
    expect(await screen.findByRole('status', { name: 'Processing' })).toBeInTheDocument();
    expect(screen.getByText('Processing')).toBeVisible();
  });

  it('highlights missing fields: name, file type and the Minimum tier... placeholder', async () => {
    fakeUploadXhr(accepted);
    const tiers = [
      { id: 't1', name: 'Bronze', rank: 1 },
      { id: 't2', name: 'Gold', rank: 2 },
    ];
    const { fetch } = renderDialog(api(uploadOptions({ tiers })));
    fireEvent.change(picker(), { target: { files: [audio()] } });
    await screen.findByText('Upload complete. Fill in the details and save the file.');
    fireEvent.change(await screen.findByRole('textbox', { name: 'Name' }), { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Paid exclusive' }));
    expect(screen.getByRole('combobox', { name: 'Minimum tier' })).toHaveDisplayValue('Minimum tier...');
    fireEvent.click(screen.getByRole('button', { name: 'Save file' }));

    expect(screen.getByText('Please fill out all highlighted fields.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('combobox', { name: 'File type' })).toHaveAccessibleDescription(
      'The file type tag must be set.',
    );
    expect(screen.getByRole('combobox', { name: 'Minimum tier' })).toHaveAttribute('aria-invalid', 'true');
    expect(fetch.mock.calls.some(([url]) => url === '/api/files')).toBe(false);

    // With a tier chosen the tier is sent, and the chunks were marked secure from then on.
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Gold only' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'File type' }), { target: { value: '1' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Minimum tier' }), { target: { value: 't2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save file' }));
    await waitFor(() => expect(fetch.mock.calls.some(([url]) => url === '/api/files')).toBe(true));
    const create = fetch.mock.calls.find(([url]) => url === '/api/files');
    expect(JSON.parse(String(create?.[1]?.body))).toMatchObject({
      name: 'Gold only',
      fileType: 1,
      patreonTier: 't2',
    });
  });

  it('offers the track number only when allowed, digits only', async () => {
    fakeUploadXhr(accepted);
    const { fetch } = renderDialog(api(uploadOptions({ canSetTrackNumber: true })));
    fireEvent.change(picker(), { target: { files: [audio()] } });
    await screen.findByText('Upload complete. Fill in the details and save the file.');
    fireEvent.change(await screen.findByRole('combobox', { name: 'File type' }), { target: { value: '1' } });
    const track = screen.getByRole('textbox', { name: /Track number/ });
    fireEvent.change(track, { target: { value: '-3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save file' }));
    expect(track).toHaveAccessibleDescription('The track number is digits only, 0 or more.');
    fireEvent.change(track, { target: { value: '07' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save file' }));
    await waitFor(() => expect(fetch.mock.calls.some(([url]) => url === '/api/files')).toBe(true));
    const create = fetch.mock.calls.find(([url]) => url === '/api/files');
    expect(JSON.parse(String(create?.[1]?.body)).trackNumber).toBe(7);
  });

  it('has no track number field and says the file stays private for private-only uploaders', async () => {
    fakeUploadXhr(accepted);
    renderDialog(api(uploadOptions({ privateOnly: true })));
    fireEvent.change(picker(), { target: { files: [audio()] } });
    expect(await screen.findByText(/This file stays private/)).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /Track number/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Paid exclusive' })).not.toBeInTheDocument();
  });

  it("shows the server's error for a refused file, and 413 as the spec's size message", async () => {
    fakeUploadXhr((call) =>
      call.hasChunk
        ? accepted(call)
        : { status: 400, body: { error: 'The file is text, not mp3, m4a, wav or flac.' } },
    );
    renderDialog();
    fireEvent.change(picker(), { target: { files: [audio('fake.mp3')] } });
    expect(await screen.findByText('The file is text, not mp3, m4a, wav or flac.')).toBeInTheDocument();
  });

  it('answers 413 with the max file size message', async () => {
    fakeUploadXhr(() => ({ status: 413, body: { error: 'Payload too large' } }));
    renderDialog();
    fireEvent.change(picker(), { target: { files: [audio()] } });
    expect(await screen.findByText(UPLOAD_TOO_LARGE_MESSAGE)).toBeInTheDocument();
  });

  it('tries a failing chunk three times, then says an error occurred and can try again', async () => {
    let failing = true;
    const sent = fakeUploadXhr((call) => (failing ? 'network' : accepted(call)));
    const base = api();
    // The server holds none of its chunks yet.
    renderDialog((input, init) => {
      const uuid = new URL(String(input), 'http://x').searchParams.get('uuid');
      if (!uuid) return base(input, init);
      return json(200, {
        uuid,
        fileName: 'Night Walk.mp3',
        state: 'receiving',
        totalChunks: 1,
        receivedChunks: [],
        error: null,
        duration: null,
        audioType: null,
        createdAt: '2026-01-01T00:00:00.000Z',
      });
    });
    fireEvent.change(picker(), { target: { files: [audio()] } });
    expect(await screen.findByText('An error occurred.', {}, { timeout: 6000 })).toBeInTheDocument();
    expect(sent).toHaveLength(3);
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('Upload complete. Fill in the details and save the file.');
    // The same upload goes on.
    expect(new Set(sent.map((c) => c.fields.uuid)).size).toBe(1);
  }, 10_000);

  it('shows the form server error for a failure of the server', async () => {
    fakeUploadXhr(accepted);
    renderDialog(api(uploadOptions(), () => json(500, { error: 'Internal Server Error' })));
    fireEvent.change(picker(), { target: { files: [audio()] } });
    await screen.findByText('Upload complete. Fill in the details and save the file.');
    fireEvent.change(await screen.findByRole('combobox', { name: 'File type' }), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save file' }));
    expect(
      await screen.findByText('An error occurred. Please close this popup and try uploading again.'),
    ).toBeInTheDocument();
  });

  it('resumes a remembered upload of the same file: sends only the chunks the server lacks', async () => {
    const uuid = '33333333-3333-4333-8333-333333333333';
    const file = audio('Long.wav');
    const size = 2 * UPLOAD_CHUNK_BYTES + 10;
    Object.defineProperty(file, 'size', { value: size });
    file.slice = (start = 0, end = size) => new File([String(end - start)], 'part');
    localStorage.setItem(
      'mesmer.uploads',
      JSON.stringify([{ uuid, name: 'Long.wav', size, lastModified: file.lastModified }]),
    );
    const sent = fakeUploadXhr(accepted);
    const base = api();
    const { fetch } = renderDialog((input, init) =>
      String(input) === `/api/files/upload?uuid=${uuid}`
        ? json(200, {
            uuid,
            fileName: 'Long.wav',
            state: 'receiving',
            totalChunks: 3,
            receivedChunks: [0, 1],
            error: null,
            duration: null,
            audioType: null,
            createdAt: '2026-01-01T00:00:00.000Z',
          })
        : base(input, init),
    );
    fireEvent.change(picker(), { target: { files: [file] } });
    await screen.findByText('Upload complete. Fill in the details and save the file.');
    expect(fetch.mock.calls.some(([url]) => url === `/api/files/upload?uuid=${uuid}`)).toBe(true);
    expect(sent.map((c) => [c.fields.uuid, c.fields.chunkIndex, c.hasChunk])).toEqual([
      [uuid, 2, true],
      [uuid, 2, false],
    ]);
    expect(localStorage.getItem('mesmer.uploads')).toBeNull();
  });
});
