/**
 * Backups of a server on the embedded database: its data folder (DATA_DIR/db) and the local media
 * folder (DATA_DIR/media) in one gzipped tar file, entries under `mesmer-backup/`. Both are copied
 * while this process holds the database's lock, so no server writes to them meanwhile; a stopped
 * PostgreSQL data folder is a consistent copy by itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { create, extract, list } from 'tar';
import { lockEmbeddedDatabase } from './client.ts';

const ROOT = 'mesmer-backup';
const PARTS = ['db', 'media'] as const;

/** A backup that cannot be made or restored, with what to do about it. */
export class BackupError extends Error {}

const isWithin = (file: string, dir: string) => !path.relative(dir, file).startsWith('..');

function folderSize(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Writes the backup to `file` (first under a temporary name, so a failed run leaves no file that
 * looks whole). `withMedia` false leaves the media out (it is in an S3 bucket). Answers a summary.
 */
export async function backupEmbedded(opts: {
  dataDir: string;
  file: string;
  withMedia: boolean;
}): Promise<string> {
  const dbDir = path.join(opts.dataDir, 'db');
  const mediaDir = path.join(opts.dataDir, 'media');
  if (!fs.existsSync(path.join(dbDir, 'PG_VERSION'))) {
    throw new BackupError(`There is no embedded database in ${dbDir} to back up.`);
  }
  if (isWithin(opts.file, dbDir) || isWithin(opts.file, mediaDir)) {
    throw new BackupError(`Write the backup outside ${dbDir} and ${mediaDir}: it would contain itself.`);
  }
  const lock = lockEmbeddedDatabase(dbDir);
  const partial = `${opts.file}.partial`;
  try {
    const media = opts.withMedia && fs.existsSync(mediaDir);
    await create({ gzip: true, file: partial, cwd: opts.dataDir, prefix: ROOT, portable: true }, [
      'db',
      ...(media ? ['media'] : []),
    ]);
    fs.renameSync(partial, opts.file);
    const counted = media ? folderSize(mediaDir) : undefined;
    const size = megabytes(fs.statSync(opts.file).size);
    return `Backed up the embedded database${counted ? ` and ${counted.files} media files` : ''} to ${opts.file} (${size}).`;
  } finally {
    fs.rmSync(partial, { force: true });
    lock.release();
  }
}

/** The entries of `file` when it is a backup of this kind: plain files and folders under db/ and media/ only. */
async function checkArchive(file: string): Promise<Set<string>> {
  const found = new Set<string>();
  const problems: string[] = [];
  await list({
    file,
    onReadEntry(entry) {
      const [root, part] = entry.path.split('/');
      const allowed =
        root === ROOT &&
        (PARTS as readonly string[]).includes(part) &&
        (entry.type === 'File' || entry.type === 'Directory') &&
        !entry.path.split('/').includes('..');
      if (allowed) found.add(part);
      else if (entry.path !== `${ROOT}/`) problems.push(entry.path);
    },
  }).catch((err: Error) => {
    throw new BackupError(`${file} is not a readable backup: ${err.message}`);
  });
  if (problems.length > 0 || !found.has('db')) {
    throw new BackupError(
      `${file} is not a Mesmer backup (made by \`npm run admin -- backup\`)` +
        (problems.length > 0 ? `: it holds ${problems[0]}.` : ': it has no database.'),
    );
  }
  return found;
}

/**
 * Replaces the embedded database (and the media folder, when the backup has one) with the backup's.
 * What was there is moved to DATA_DIR/before-restore-<time>, not deleted. Answers a summary.
 */
export async function restoreEmbedded(opts: { dataDir: string; file: string }): Promise<string> {
  if (!fs.existsSync(opts.file)) throw new BackupError(`There is no file ${opts.file}.`);
  const parts = await checkArchive(opts.file);
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const dbDir = path.join(opts.dataDir, 'db');
  const lock = lockEmbeddedDatabase(dbDir);
  const staging = fs.mkdtempSync(path.join(opts.dataDir, '.restore-'));
  try {
    await extract({ file: opts.file, cwd: staging, strip: 1 });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const previous = path.join(opts.dataDir, `before-restore-${stamp}`);
    const kept: string[] = [];
    for (const part of PARTS) {
      if (!parts.has(part)) continue;
      const target = path.join(opts.dataDir, part);
      if (fs.existsSync(target) && fs.readdirSync(target).length > 0) {
        fs.mkdirSync(previous, { recursive: true });
        fs.renameSync(target, path.join(previous, part));
        kept.push(part);
      } else {
        fs.rmSync(target, { recursive: true, force: true });
      }
      fs.renameSync(path.join(staging, part), target);
    }
    const restored = parts.has('media')
      ? 'the embedded database and the media folder'
      : 'the embedded database';
    return (
      `Restored ${restored} from ${opts.file}.` +
      (kept.length > 0
        ? ` What was there (${kept.join(', ')}) is in ${previous}; delete it when all is well.`
        : '')
    );
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    lock.release();
  }
}
