import { errorResponse } from '@mesmer/shared/api/common';
import {
  type UploadStatus,
  uploadChunkFields,
  uploadChunkResponse,
  uploadStatus,
} from '@mesmer/shared/api/uploads';
import {
  UNFINISHED_UPLOADS_FULL_MESSAGE,
  UPLOAD_CHUNK_BYTES,
  UPLOAD_TOO_LARGE_MESSAGE,
} from '@mesmer/shared/domain/upload-limits';
import { describe, expect, it, vi } from 'vitest';
import { CHUNK_FAILED_MESSAGE, type ChunkTransport, RETRY_DELAYS_MS, uploadFile } from './upload-client.ts';

const UUID = '11111111-1111-4111-8111-111111111111';
const FIELD_ORDER = ['uuid', 'fileName', 'secure', 'chunkIndex', 'totalChunks', 'chunkSize', 'fileSize'];

/** A Blob that says it holds `size` bytes without holding them (chunks are 80 MB). */
class SizedBlob extends Blob {
  constructor(private readonly fakeSize: number) {
    super([]);
  }
  override get size() {
    return this.fakeSize;
  }
}

/** A file of `size` bytes whose slices are SizedBlobs. */
function bigFile(name: string, size: number, lastModified = 1_700_000_000_000): File {
  return {
    name,
    size,
    lastModified,
    type: '',
    slice: (start = 0, end = size) => new SizedBlob(end - start),
  } as unknown as File;
}

interface SentCall {
  keys: string[];
  fields: ReturnType<typeof uploadChunkFields.parse>;
  chunkBytes: number | null;
}

/**
 * A fake POST /api/files/upload: checks each call's fields against the contract (in its order),
 * answers with `answer` (checked against the declared responses) and reports progress in two steps.
 */
function fakeTransport(answer: (call: SentCall, n: number) => { status: number; body: unknown } | 'network') {
  const calls: SentCall[] = [];
  const transport: ChunkTransport = async (form, onProgress) => {
    const keys = [...form.keys()];
    const fields = uploadChunkFields.parse(
      Object.fromEntries([...form.entries()].filter(([k]) => k !== 'chunk')),
    );
    // FormData copies the fake-sized slice, so the chunk's bytes are read from its declared size.
    const call: SentCall = {
      keys,
      fields,
      chunkBytes: keys.includes('chunk') ? (fields.chunkSize ?? 0) : null,
    };
    calls.push(call);
    if (call.chunkBytes) {
      onProgress(Math.floor(call.chunkBytes / 2));
      onProgress(call.chunkBytes);
    }
    const res = answer(call, calls.length);
    if (res === 'network') throw new TypeError('The connection failed.');
    (res.status === 200 ? uploadChunkResponse : errorResponse).parse(res.body);
    return res;
  };
  return { transport, calls };
}

const ok = (call: SentCall) => ({ status: 200, body: { data: { uuid: call.fields.uuid } } });

function baseRequest(
  file: File,
  transport: ChunkTransport,
  extra: Partial<Parameters<typeof uploadFile>[0]> = {},
) {
  return {
    file,
    secure: () => false,
    signal: new AbortController().signal,
    transport,
    newUuid: () => UUID,
    sleep: vi.fn(async () => {}),
    status: vi.fn(async (): Promise<UploadStatus | null> => null),
    ...extra,
  };
}

describe('uploadFile', () => {
  it('sends each 80 MB chunk with the contract fields in order, then completes without a chunk', async () => {
    const size = 2 * UPLOAD_CHUNK_BYTES + 5;
    const { transport, calls } = fakeTransport(ok);
    const progress: number[] = [];
    const onProcessing = vi.fn();
    const uuid = await uploadFile(
      baseRequest(bigFile('Deep.wav', size), transport, {
        secure: () => true,
        onProgress: (sent, total) => {
          expect(total).toBe(size);
          progress.push(sent);
        },
        onProcessing,
      }),
    );
    expect(uuid).toBe(UUID);
    expect(calls.map((c) => [c.fields.chunkIndex, c.chunkBytes])).toEqual([
      [0, UPLOAD_CHUNK_BYTES],
      [1, UPLOAD_CHUNK_BYTES],
      [2, 5],
      [2, null],
    ]);
    expect(calls[0].keys).toEqual([...FIELD_ORDER, 'chunk']);
    expect(calls[3].keys).toEqual(FIELD_ORDER);
    expect(calls[0].fields).toEqual({
      uuid: UUID,
      fileName: 'Deep.wav',
      secure: true,
      chunkIndex: 0,
      totalChunks: 3,
      chunkSize: UPLOAD_CHUNK_BYTES,
      fileSize: size,
    });
    // Progress per byte, never backwards, ending at the file's size.
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress).toContain(UPLOAD_CHUNK_BYTES / 2);
    expect(progress.at(-1)).toBe(size);
    expect(onProcessing).toHaveBeenCalledOnce();
    // A completed upload is forgotten.
    expect(localStorage.getItem('mesmer.uploads')).toBeNull();
  });

  it('tries a failing chunk three times, backing off, then says an error occurred', async () => {
    const { transport, calls } = fakeTransport(() => ({ status: 500, body: { error: 'Storage is down.' } }));
    const sleep = vi.fn(async (_ms: number) => {});
    await expect(uploadFile(baseRequest(bigFile('a.mp3', 1000), transport, { sleep }))).rejects.toThrow(
      CHUNK_FAILED_MESSAGE,
    );
    expect(calls).toHaveLength(3);
    expect(sleep.mock.calls).toEqual(RETRY_DELAYS_MS.map((ms) => [ms]));
  });

  it('goes on when a retry succeeds after a lost connection', async () => {
    const { transport, calls } = fakeTransport((call, n) => (n === 1 ? 'network' : ok(call)));
    const sleep = vi.fn(async (_ms: number) => {});
    await expect(uploadFile(baseRequest(bigFile('a.mp3', 1000), transport, { sleep }))).resolves.toBe(UUID);
    expect(calls.map((c) => c.chunkBytes)).toEqual([1000, 1000, null]);
    expect(sleep).toHaveBeenCalledTimes(1);
  });

  it("answers 413 with the spec's size message, without trying again", async () => {
    const { transport, calls } = fakeTransport(() => ({ status: 413, body: { error: 'Too big.' } }));
    await expect(uploadFile(baseRequest(bigFile('a.mp3', 1000), transport))).rejects.toThrow(
      UPLOAD_TOO_LARGE_MESSAGE,
    );
    expect(calls).toHaveLength(1);
  });

  it('answers a 413 about the unfinished uploads with its own message, without trying again', async () => {
    const { transport, calls } = fakeTransport(() => ({
      status: 413,
      body: { error: UNFINISHED_UPLOADS_FULL_MESSAGE },
    }));
    await expect(uploadFile(baseRequest(bigFile('a.mp3', 1000), transport))).rejects.toThrow(
      UNFINISHED_UPLOADS_FULL_MESSAGE,
    );
    expect(calls).toHaveLength(1);
  });

  it("shows the server's message when completing fails", async () => {
    const { transport } = fakeTransport((call) =>
      call.chunkBytes
        ? ok(call)
        : { status: 400, body: { error: 'The file is not audio (found txt).', field: 'chunk' } },
    );
    await expect(uploadFile(baseRequest(bigFile('a.mp3', 1000), transport))).rejects.toThrow(
      'The file is not audio (found txt).',
    );
  });

  it('resumes after a failure: asks which chunks the server holds and sends only the others', async () => {
    const file = bigFile('Long.flac', 3 * UPLOAD_CHUNK_BYTES);
    const first = fakeTransport((call) => (call.fields.chunkIndex === 0 ? ok(call) : 'network'));
    await expect(uploadFile(baseRequest(file, first.transport))).rejects.toThrow(CHUNK_FAILED_MESSAGE);
    expect(JSON.parse(localStorage.getItem('mesmer.uploads') ?? '[]')).toEqual([
      { uuid: UUID, name: 'Long.flac', size: file.size, lastModified: file.lastModified },
    ]);

    const second = fakeTransport(ok);
    const progress: number[] = [];
    const status = vi.fn(async (uuid: string) =>
      uploadStatus.parse({
        uuid,
        fileName: 'Long.flac',
        state: 'receiving',
        totalChunks: 3,
        receivedChunks: [0, 2],
        error: null,
        duration: null,
        audioType: null,
        createdAt: '2026-01-01T00:00:00.000Z',
      }),
    );
    const uuid = await uploadFile(
      baseRequest(file, second.transport, {
        newUuid: () => 'not-used',
        status,
        onProgress: (sent) => progress.push(sent),
      }),
    );
    expect(uuid).toBe(UUID);
    expect(status).toHaveBeenCalledWith(UUID, expect.anything());
    expect(second.calls.map((c) => [c.fields.uuid, c.fields.chunkIndex, c.chunkBytes])).toEqual([
      [UUID, 1, UPLOAD_CHUNK_BYTES],
      [UUID, 2, null],
    ]);
    // The held chunks count as sent from the start.
    expect(progress[0]).toBe(2 * UPLOAD_CHUNK_BYTES);
  });

  it('starts afresh when the server no longer has the remembered upload', async () => {
    localStorage.setItem(
      'mesmer.uploads',
      JSON.stringify([{ uuid: UUID, name: 'a.mp3', size: 1000, lastModified: 1_700_000_000_000 }]),
    );
    const { transport, calls } = fakeTransport(ok);
    const other = '22222222-2222-4222-8222-222222222222';
    await expect(
      uploadFile(baseRequest(bigFile('a.mp3', 1000), transport, { newUuid: () => other })),
    ).resolves.toBe(other);
    expect(calls.every((c) => c.fields.uuid === other)).toBe(true);
  });

  it('refuses a different file for the upload to resume', async () => {
    const { transport, calls } = fakeTransport(ok);
    const status = vi.fn(async () =>
      uploadStatus.parse({
        uuid: UUID,
        fileName: 'Long.flac',
        state: 'receiving',
        totalChunks: 3,
        receivedChunks: [0],
        error: null,
        duration: null,
        audioType: null,
        createdAt: '2026-01-01T00:00:00.000Z',
      }),
    );
    await expect(
      uploadFile(baseRequest(bigFile('short.mp3', 1000), transport, { resumeUuid: UUID, status })),
    ).rejects.toThrow('This is not the file “Long.flac” of the upload to resume.');
    expect(calls).toEqual([]);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const transport: ChunkTransport = (_form, _progress, signal) =>
      new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new DOMException('stopped', 'AbortError'))),
      );
    const done = uploadFile(baseRequest(bigFile('a.mp3', 1000), transport, { signal: controller.signal }));
    controller.abort();
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
  });
});
