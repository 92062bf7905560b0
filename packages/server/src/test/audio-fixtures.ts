import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';

/**
 * Short audio files made with the ffmpeg the server decodes with (@ffmpeg-installer/ffmpeg),
 * for API and end-to-end tests of uploads. Made once per process into a temp folder. Plain
 * functions: no test runner imports, so e2e can use them too.
 */

const run = promisify(execFile);
export type FixtureFormat = 'mp3' | 'm4a' | 'wav' | 'flac';

const ENCODERS: Record<FixtureFormat, string[]> = {
  mp3: ['-c:a', 'libmp3lame', '-b:a', '128k'],
  m4a: ['-c:a', 'aac', '-b:a', '128k'],
  wav: ['-c:a', 'pcm_s16le'],
  flac: ['-c:a', 'flac'],
};

let dir: string | undefined;
const made = new Map<string, Promise<string>>();

function fixtureDir(): string {
  dir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-audio-fixtures-'));
  return dir;
}

async function ffmpeg(args: string[]): Promise<void> {
  const bin = ffmpegInstaller.path;
  try {
    fs.accessSync(bin, fs.constants.X_OK);
  } catch {
    fs.chmodSync(bin, 0o755);
  }
  await run(bin, ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

/**
 * A `seconds`-long 1 kHz sine at -20 dBFS peak (mono, 44.1 kHz) in `format`: its integrated
 * loudness is about -23 LUFS. Answers the file's path.
 */
export function sineFile(format: FixtureFormat, seconds = 3): Promise<string> {
  const name = `sine-${seconds}s.${format}`;
  let file = made.get(name);
  if (!file) {
    const target = path.join(fixtureDir(), name);
    file = ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `aevalsrc=0.1*sin(2*PI*1000*t):s=44100:d=${seconds}`,
      ...ENCODERS[format],
      target,
    ]).then(() => target);
    made.set(name, file);
  }
  return file;
}

/** The first `fraction` of a `seconds`-long wav whose header still announces the whole length. */
export async function truncatedWav(seconds = 3, fraction = 0.5): Promise<string> {
  const whole = await sineFile('wav', seconds);
  const target = path.join(fixtureDir(), `truncated-${seconds}s-${fraction}.wav`);
  if (!fs.existsSync(target)) {
    const bytes = fs.readFileSync(whole);
    fs.writeFileSync(target, bytes.subarray(0, Math.floor(bytes.length * fraction)));
  }
  return target;
}

/** An m4a cut off before its index (moov) at the end: nothing can read it. */
export async function truncatedM4a(seconds = 3): Promise<string> {
  const whole = await sineFile('m4a', seconds);
  const target = path.join(fixtureDir(), `truncated-${seconds}s.m4a`);
  if (!fs.existsSync(target)) {
    const bytes = fs.readFileSync(whole);
    fs.writeFileSync(target, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
  }
  return target;
}

/** Removes the fixtures made by this process. */
export function removeAudioFixtures(): void {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
  made.clear();
}
