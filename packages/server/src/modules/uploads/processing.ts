import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { UPLOAD_FORMATS, type UploadFormat } from '@mesmer/shared/domain/upload-limits';
import { PEAK_BASE_MS } from '@mesmer/shared/domain/waveform-peaks';
import { fileTypeFromBuffer } from 'file-type';
import { parseStream } from 'music-metadata';
import { Invalid } from '../../platform/errors.ts';
import type { Storage } from '../../platform/storage.ts';

/** About this many peaks across a track. */
export const WAVEFORM_POINTS = 1000;
/** The decoder's output rate for the waveform (mono): enough for peaks, cheap to read. */
const DECODE_RATE = 8000;
/** Bytes file-type needs to recognise a format. */
const HEAD_BYTES = 4100;
/** What is kept of the decoder's log: the loudness summary is at its end. */
const LOG_TAIL = 16 * 1024;
/** Decoded samples in one peak of the finest level (PEAK_BASE_MS). */
const SAMPLES_PER_FINE_PEAK = (DECODE_RATE * PEAK_BASE_MS) / 1000;

export interface AudioAnalysis {
  audioType: UploadFormat;
  codec: string;
  /** Milliseconds. */
  duration: number;
  size: number;
  waveform: number[];
  loudness: number | null;
  /** The finest level of the editor's peaks (shared/domain/waveform-peaks.ts), 0-255. */
  finePeaks: Uint8Array;
}

const CORRUPT = 'The file is corrupt or truncated: its audio could not be read.';

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** The format the bytes are in (never the name's extension), or 400 naming what was found. */
export async function detectFormat(head: Buffer): Promise<UploadFormat> {
  const found = await fileTypeFromBuffer(head);
  const format = UPLOAD_FORMATS.find((f) => f === found?.ext);
  if (!format)
    throw new Invalid(`Unsupported format: ${found?.ext ?? 'unknown'}. Upload mp3, m4a, wav or flac.`);
  return format;
}

let ffmpegReady: Promise<string> | undefined;
/** The decoder shipped in the npm package; npm may have skipped its chmod (install scripts off). */
function ffmpegPath(): Promise<string> {
  ffmpegReady ??= (async () => {
    const bin = ffmpegInstaller.path;
    try {
      await fs.access(bin, fs.constants.X_OK);
    } catch {
      await fs.chmod(bin, 0o755);
    }
    return bin;
  })();
  return ffmpegReady;
}

export interface Decoded {
  waveform: number[];
  loudness: number | null;
  /** The loudest sample of every PEAK_BASE_MS, 0-255 (the cue editor's finest peaks). */
  finePeaks: Uint8Array;
  /** Samples decoded at DECODE_RATE. */
  samples: number;
}

/** Bytes that grow as they are pushed, doubling their room (the fine peaks of a track of unknown length). */
class ByteList {
  private bytes: Uint8Array;
  length = 0;
  constructor(expected: number) {
    this.bytes = new Uint8Array(Math.max(16, expected));
  }
  push(byte: number) {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length++] = byte;
  }
  done(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

/**
 * Decodes `input` (a stream, or a file path for formats that need seeking) with ffmpeg: peak
 * levels in about WAVEFORM_POINTS buckets and in buckets of PEAK_BASE_MS (the cue editor's finest
 * level, 200 bytes a second), read as the samples stream (memory stays bounded by the track's
 * length), and the integrated loudness (EBU R128) from the ebur128 filter's summary.
 */
export async function decodeAudio(input: Readable | string, durationMs: number): Promise<Decoded> {
  const bin = await ffmpegPath();
  const expected = Math.max(1, Math.round((durationMs / 1000) * DECODE_RATE));
  // Bucket b ends at sample ceil((b + 1) * expected / WAVEFORM_POINTS): WAVEFORM_POINTS of them
  // when the decoder gives what the container announced.
  const endOf = (bucket: number) =>
    Math.max(bucket + 1, Math.ceil(((bucket + 1) * expected) / WAVEFORM_POINTS));
  let bucketEnd = endOf(0);
  const child = spawn(
    bin,
    [
      '-nostdin',
      '-hide_banner',
      '-i',
      typeof input === 'string' ? input : 'pipe:0',
      '-vn',
      '-af',
      `ebur128=framelog=verbose,aresample=${DECODE_RATE},aformat=sample_fmts=flt:channel_layouts=mono`,
      '-f',
      'f32le',
      'pipe:1',
    ],
    { stdio: [typeof input === 'string' ? 'ignore' : 'pipe', 'pipe', 'pipe'] },
  );
  const waveform: number[] = [];
  const finePeaks = new ByteList(Math.ceil(expected / SAMPLES_PER_FINE_PEAK) + 1);
  let peak = 0;
  let inBucket = 0;
  let finePeak = 0;
  let inFinePeak = 0;
  let samples = 0;
  let rest: Buffer = Buffer.alloc(0);
  child.stdout?.on('data', (data: Buffer) => {
    const bytes = rest.length > 0 ? Buffer.concat([rest, data]) : data;
    const whole = bytes.length - (bytes.length % 4);
    for (let at = 0; at < whole; at += 4) {
      const level = Math.abs(bytes.readFloatLE(at));
      if (level > peak) peak = level;
      if (level > finePeak) finePeak = level;
      if (++inFinePeak === SAMPLES_PER_FINE_PEAK) {
        finePeaks.push(Math.min(255, Math.round(finePeak * 255)));
        finePeak = 0;
        inFinePeak = 0;
      }
      samples++;
      inBucket++;
      if (samples === bucketEnd) {
        waveform.push(Math.min(1, Math.round(peak * 1000) / 1000));
        peak = 0;
        inBucket = 0;
        bucketEnd = endOf(waveform.length);
      }
    }
    rest = bytes.subarray(whole);
  });
  let log = '';
  child.stderr?.on('data', (data: Buffer) => {
    log = (log + data.toString('utf8')).slice(-LOG_TAIL);
  });
  if (typeof input !== 'string' && child.stdin) {
    // The decoder may stop reading early (a broken file): that is its answer, not ours.
    child.stdin.on('error', () => undefined);
    input.on('error', () => child.kill('SIGKILL'));
    input.pipe(child.stdin);
  }
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (typeof input !== 'string') input.destroy();
  if (code !== 0 || samples === 0) throw new Invalid(CORRUPT);
  if (inBucket > 0) waveform.push(Math.min(1, Math.round(peak * 1000) / 1000));
  if (inFinePeak > 0) finePeaks.push(Math.min(255, Math.round(finePeak * 255)));
  const summary = [...log.matchAll(/I:\s+(-?[\d.]+|-inf) LUFS/g)].at(-1);
  const loudness = summary && Number.isFinite(Number(summary[1])) ? Number(summary[1]) : null;
  return { waveform, loudness, samples, finePeaks: finePeaks.done() };
}

/**
 * Runs `work` with the object at `key` as a local file (m4a keeps its index at the end, so its
 * decoder needs to seek), removing the temporary copy afterwards whatever happens.
 */
export async function withLocalCopy<T>(storage: Storage, key: string, work: (file: string) => Promise<T>) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mesmer-audio-'));
  try {
    const file = path.join(dir, 'audio');
    await pipeline(storage.createReadStream(key), createWriteStream(file));
    return await work(file);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Decodes the object at `key` in `format` (a temp copy for m4a, streamed otherwise). */
export function decodeStored(storage: Storage, key: string, format: string, durationMs: number) {
  if (format === 'm4a') return withLocalCopy(storage, key, (file) => decodeAudio(file, durationMs));
  return decodeAudio(storage.createReadStream(key), durationMs);
}

/**
 * Everything the upload needs to know about the bytes at `key`, trusting none of what the
 * client said: the format from the first bytes, duration and codec from the container, and
 * a full decode for the waveform and loudness (which also proves the audio is whole).
 */
export async function analyseUpload(storage: Storage, key: string): Promise<AudioAnalysis> {
  const stat = await storage.stat(key);
  if (!stat || stat.size === 0) throw new Invalid('The file is empty.');
  const head = await readAll(
    storage.createReadStream(key, { start: 0, end: Math.min(stat.size, HEAD_BYTES) - 1 }),
  );
  const audioType = await detectFormat(head);
  if (audioType === 'wav') checkRiffLength(head, stat.size);
  let durationSeconds: number | undefined;
  let codec: string | undefined;
  try {
    const { format } = await parseStream(
      storage.createReadStream(key),
      { size: stat.size, mimeType: mimeOf(audioType) },
      { duration: true, skipCovers: true },
    );
    durationSeconds = format.duration;
    codec = format.codec ?? format.container;
  } catch {
    throw new Invalid(CORRUPT);
  }
  if (!durationSeconds || !Number.isFinite(durationSeconds) || durationSeconds <= 0)
    throw new Invalid(CORRUPT);
  const duration = Math.round(durationSeconds * 1000);
  const decoded = await decodeStored(storage, key, audioType, duration);
  // Fewer samples than the container promises: the bytes stop early.
  const expected = durationSeconds * DECODE_RATE;
  if (decoded.samples < expected * 0.97 - DECODE_RATE / 2) {
    throw new Invalid(
      `The file is truncated: it holds ${(decoded.samples / DECODE_RATE).toFixed(1)} s of the ${durationSeconds.toFixed(1)} s it announces.`,
    );
  }
  return {
    audioType,
    codec: codec ?? audioType,
    duration,
    size: stat.size,
    waveform: decoded.waveform,
    loudness: decoded.loudness,
    finePeaks: decoded.finePeaks,
  };
}

/**
 * A wav's header says how long the file is (RIFF size + 8): fewer bytes mean it was cut off.
 * (0 and 0xFFFFFFFF mark a stream written without knowing its length.)
 */
function checkRiffLength(head: Buffer, size: number) {
  if (head.length < 8 || head.toString('latin1', 0, 4) !== 'RIFF') return;
  const declared = head.readUInt32LE(4);
  if (declared === 0 || declared === 0xffffffff) return;
  if (declared + 8 > size) {
    throw new Invalid(
      `The file is truncated: it holds ${size} of the ${declared + 8} bytes its header announces.`,
    );
  }
}

function mimeOf(format: UploadFormat): string {
  return { mp3: 'audio/mpeg', m4a: 'audio/mp4', wav: 'audio/wav', flac: 'audio/flac' }[format];
}
