/**
 * Upload benchmark: a 350,000,000-byte wav sent as the dialog sends it (chunks of
 * 80,000,000 bytes through POST /api/files/upload, then the completing call that joins, checks and
 * analyses it) against one raw PUT of the same bytes to the same server (straight into storage).
 * Runs on the local folder and on S3 (an s3rver the script starts on 127.0.0.1). Prints the times,
 * the ratio (target ≤ 1.3×) and how far the server's RSS rose above its idle level (target < 64 MB).
 * The bytes are made as they are sent: neither side holds the file.
 *
 *   npm run bench:upload -w @mesmer/bench          (BENCH_BACKENDS=local or s3 for one)
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startS3Server, type TestS3Server } from '../packages/server/src/test/s3-server.ts';
import { wavHeader } from './wav.ts';

const FILE_BYTES = 350_000_000;
const CHUNK_BYTES = 80_000_000;
const RATE = 44_100;

const HEADER = wavHeader(FILE_BYTES);
/** One second of a 440 Hz tone at -20 dBFS, repeated as the audio. */
const SECOND = Buffer.alloc(RATE * 4);
for (let i = 0; i < RATE; i++) {
  const v = Math.round(0.1 * 32767 * Math.sin((2 * Math.PI * 440 * i) / RATE));
  SECOND.writeInt16LE(v, i * 4);
  SECOND.writeInt16LE(v, i * 4 + 2);
}

/** Writes bytes [start, end) of the file to `out`, in pieces, waiting when the socket is full. */
async function writeRange(out: http.ClientRequest, start: number, end: number) {
  let at = start;
  while (at < end) {
    let piece: Buffer;
    if (at < 44) piece = HEADER.subarray(at, Math.min(44, end));
    else {
      const offset = (at - 44) % SECOND.length;
      piece = SECOND.subarray(offset, Math.min(SECOND.length, offset + (end - at)));
    }
    at += piece.length;
    if (!out.write(piece)) await new Promise((resolve) => out.once('drain', resolve));
  }
}

interface Answer {
  status: number;
  body: string;
}

function request(
  port: number,
  options: http.RequestOptions,
  send: (req: http.ClientRequest) => Promise<void>,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, ...options }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    send(req).then(
      () => req.end(),
      (err: unknown) => req.destroy(err as Error),
    );
  });
}

/** One chunk call (or, without a range, the completing call): multipart written by hand so the chunk streams. */
function chunkCall(
  port: number,
  token: string,
  uuid: string,
  index: number,
  total: number,
  range?: [number, number],
) {
  const boundary = `----bench${randomUUID()}`;
  const fields: Record<string, string> = {
    uuid,
    fileName: 'bench.wav',
    secure: 'false',
    chunkIndex: String(index),
    totalChunks: String(total),
    fileSize: String(FILE_BYTES),
  };
  if (range) fields.chunkSize = String(range[1] - range[0]);
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  if (range) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="chunk"; filename="blob"\r\n`;
    head += 'Content-Type: application/octet-stream\r\n\r\n';
  }
  const tail = `${range ? '\r\n' : ''}--${boundary}--\r\n`;
  const length = Buffer.byteLength(head) + (range ? range[1] - range[0] : 0) + Buffer.byteLength(tail);
  return request(
    port,
    {
      method: 'POST',
      path: '/api/files/upload',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': length,
      },
    },
    async (req) => {
      req.write(head);
      if (range) await writeRange(req, range[0], range[1]);
      req.write(tail);
    },
  );
}

async function rss(port: number): Promise<number> {
  const res = await request(port, { method: 'GET', path: '/api/bench/rss' }, async () => undefined);
  return JSON.parse(res.body).rss as number;
}

/** Polls the server's RSS while `work` runs; answers the highest seen. */
async function peakRss<T>(port: number, work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = 0;
  let running = true;
  const poll = (async () => {
    while (running) {
      peak = Math.max(peak, await rss(port));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  try {
    const result = await work();
    return { result, peak };
  } finally {
    running = false;
    await poll;
  }
}

async function startServer(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; port: number; token: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-bench-upload-'));
  const child = fork(path.join(path.dirname(fileURLToPath(import.meta.url)), 'upload-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      RATE_LIMIT: 'false',
      DATA_DIR: dataDir,
      ...env,
    },
  });
  child.once('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const { port, token } = await new Promise<{ port: number; token: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number; token: string }));
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  return { child, port, token };
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

async function bench(name: string, env: Record<string, string>) {
  const { child, port, token } = await startServer(env);
  try {
    // Warm up: the routes, the storage client, the decoder.
    await request(
      port,
      {
        method: 'PUT',
        path: '/api/bench/raw',
        headers: { 'content-type': 'application/octet-stream', 'content-length': 1000 },
      },
      (req) => writeRange(req, 0, 1000),
    );
    let idle = await rss(port);

    const rawStart = performance.now();
    const raw = await peakRss(port, () =>
      request(
        port,
        {
          method: 'PUT',
          path: '/api/bench/raw',
          headers: { 'content-type': 'application/octet-stream', 'content-length': FILE_BYTES },
        },
        (req) => writeRange(req, 0, FILE_BYTES),
      ),
    );
    const rawMs = performance.now() - rawStart;
    if (raw.result.status !== 200) throw new Error(`raw PUT: ${raw.result.status} ${raw.result.body}`);

    idle = await rss(port);
    const uuid = randomUUID();
    const total = Math.ceil(FILE_BYTES / CHUNK_BYTES);
    const chunkStart = performance.now();
    const chunks = await peakRss(port, async () => {
      for (let i = 0; i < total; i++) {
        const res = await chunkCall(port, token, uuid, i, total, [
          i * CHUNK_BYTES,
          Math.min(FILE_BYTES, (i + 1) * CHUNK_BYTES),
        ]);
        if (res.status !== 200) throw new Error(`chunk ${i}: ${res.status} ${res.body}`);
      }
    });
    const chunksMs = performance.now() - chunkStart;
    const completeStart = performance.now();
    const completed = await peakRss(port, () => chunkCall(port, token, uuid, 0, total));
    const completeMs = performance.now() - completeStart;
    if (completed.result.status !== 200)
      throw new Error(`complete: ${completed.result.status} ${completed.result.body}`);

    console.log(`\n${name}: ${mb(FILE_BYTES)} MB`);
    console.log(`  raw PUT                         ${seconds(rawMs)} s   RSS +${mb(raw.peak - idle)} MB`);
    console.log(
      `  ${total} chunks of 80 MB              ${seconds(chunksMs)} s   RSS +${mb(chunks.peak - idle)} MB   ratio ${(chunksMs / rawMs).toFixed(2)}×`,
    );
    console.log(
      `  complete (join, check, analyse) ${seconds(completeMs)} s   RSS +${mb(completed.peak - idle)} MB`,
    );
    console.log(
      `  chunks + complete               ${seconds(chunksMs + completeMs)} s   ratio ${((chunksMs + completeMs) / rawMs).toFixed(2)}×`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const backends = (process.env.BENCH_BACKENDS ?? 'local,s3').split(',');
if (backends.includes('local')) await bench('local folder', {});
if (backends.includes('s3')) {
  const s3: TestS3Server = await startS3Server({ bucket: 'mesmer-bench' });
  try {
    await bench('S3 (s3rver on 127.0.0.1)', s3.env);
  } finally {
    await s3.stop();
  }
}
