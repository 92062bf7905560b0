import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LockHeldError, takeLock } from './embedded-lock.ts';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-lock-'));
const file = path.join(folder, 'db.pid');
const noLoss = () => {
  throw new Error('the lock was not expected to be lost');
};
const mine = () => JSON.parse(fs.readFileSync(file, 'utf8'));
/** What this process writes into its lock file. */
const me = (() => {
  const lock = takeLock(file, noLoss);
  const written = mine();
  lock.release();
  return written;
})();
const owner = (fields: Record<string, unknown>) => JSON.stringify({ ...me, ...fields });

afterEach(() => fs.rmSync(file, { force: true }));

describe('the embedded database lock', () => {
  it('names this process, refuses a second taker while held and is gone once released', () => {
    const lock = takeLock(file, noLoss);
    expect(mine()).toMatchObject({ pid: process.pid, host: os.hostname() });
    expect(() => takeLock(file, noLoss)).toThrow(LockHeldError);
    lock.release();
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  it('takes over from an owner whose process has ended', () => {
    const ended = spawnSync(process.execPath, ['-e', 'process.exit(0)']);
    fs.writeFileSync(file, owner({ pid: ended.pid, token: 'ended' }));
    const current = takeLock(file, noLoss);
    expect(mine()).toEqual(me);
    current.release();
  });

  it('takes over from a live pid written before the machine restarted', () => {
    fs.writeFileSync(file, owner({ pid: process.ppid, token: 'before', boot: 'an earlier boot' }));
    takeLock(file, noLoss).release();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('takes over from an earlier process that had this same pid, and from a file cut short', () => {
    fs.writeFileSync(file, owner({ token: 'an earlier process' }));
    takeLock(file, noLoss).release();
    fs.writeFileSync(file, '{"pid":');
    takeLock(file, noLoss).release();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('keeps the lock of a live process, and of another host it cannot ask', () => {
    fs.writeFileSync(file, owner({ pid: process.ppid, token: 'parent' }));
    expect(() => takeLock(file, noLoss)).toThrow(
      `${file} is held by process ${process.ppid} on ${os.hostname()}`,
    );
    fs.writeFileSync(file, owner({ pid: 2_000_000_000, host: 'elsewhere' }));
    expect(() => takeLock(file, noLoss)).toThrow(`${file} is held by process 2000000000 on elsewhere`);
    expect(fs.readFileSync(file, 'utf8')).toBe(owner({ pid: 2_000_000_000, host: 'elsewhere' }));
  });
});
