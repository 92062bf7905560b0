import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { App } from '../app.ts';
import { authHeader } from './factories.ts';

/** POST /api/files/upload as multipart: the fields, then the chunk part when given. */
export async function postUploadForm(
  app: App,
  token: string | null,
  fields: Record<string, string | number | boolean>,
  chunk?: Buffer,
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  if (chunk) form.append('chunk', new Blob([new Uint8Array(chunk)]), 'blob');
  const encoded = new Response(form);
  return app.inject({
    method: 'POST',
    url: '/api/files/upload',
    headers: {
      ...(token ? authHeader(token) : {}),
      'content-type': encoded.headers.get('content-type') as string,
    },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
}

/**
 * Uploads `bytes` as `<name>.wav` in one chunk, completes the upload and publishes it as a file
 * (POST /api/files), each call expected to succeed. Answers the new file's id and the upload's
 * client handle.
 */
export async function uploadAndPublish(
  app: App,
  token: string,
  bytes: Buffer,
  name: string,
): Promise<{ id: number; handle: string }> {
  const handle = randomUUID();
  const fields = { uuid: handle, fileName: `${name}.wav`, secure: 'false', chunkIndex: 0, totalChunks: 1 };
  const sent = await postUploadForm(app, token, { ...fields, chunkSize: bytes.length }, bytes);
  expect(sent.statusCode, sent.body).toBe(200);
  const completed = await postUploadForm(app, token, fields);
  expect(completed.statusCode, completed.body).toBe(200);
  const created = await app.inject({
    method: 'POST',
    url: '/api/files',
    headers: authHeader(token),
    payload: { uuid: handle, name, fileType: 2, description: 'A tone.' },
  });
  expect(created.statusCode, created.body).toBe(200);
  return { id: created.json().id, handle };
}
