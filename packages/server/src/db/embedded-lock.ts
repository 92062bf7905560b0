import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';

/**
 * Who holds a lock. `token` tells this process from an earlier one that had the same pid (a pid is
 * reused); `boot` changes when the machine restarts, so a pid from before a reboot is not trusted.
 */
export interface LockOwner {
  pid: number;
  host: string;
  boot: string;
  token: string;
}

function bootId(): string {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}

const thisProcess: LockOwner = { pid: process.pid, host: os.hostname(), boot: bootId(), token: randomUUID() };

/** How often a holder checks that its lock file still names it. */
const CHECK_EVERY_MS = 2000;

export class LockHeldError extends Error {
  constructor(
    readonly file: string,
    readonly owner: LockOwner | undefined,
  ) {
    super(`${file} is held by ${owner ? `process ${owner.pid} on ${owner.host}` : 'another process'}`);
  }
}

export class LockLostError extends Error {}

export interface HeldLock {
  /** Whether the file stopped naming this process (removed or taken by another). */
  readonly lost: boolean;
  release(): void;
}

/**
 * Whether the owner still runs. A pid is asked with signal 0, which a paused (SIGSTOP) process
 * answers too, so a live owner is never displaced however long it waits. An owner on another
 * host cannot be asked, so it counts as alive.
 */
function isAlive(owner: LockOwner): boolean {
  if (owner.host !== thisProcess.host) return true;
  if (owner.boot !== thisProcess.boot) return false;
  if (owner.pid === thisProcess.pid) return owner.token === thisProcess.token;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(text) as LockOwner;
    return Number.isInteger(owner.pid) && typeof owner.host === 'string' ? owner : undefined;
  } catch {
    return undefined;
  }
}

/** Creates `file` holding `content`, or answers false when it exists. Linking a complete temporary file means a reader never sees it half written. */
function create(file: string, content: string): boolean {
  const temporary = `${file}.${randomUUID()}`;
  fs.writeFileSync(temporary, content);
  try {
    fs.linkSync(temporary, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    fs.unlinkSync(temporary);
  }
}

function read(file: string): { text: string; ino: number } | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    return { text: fs.readFileSync(fd, 'utf8'), ino: fs.fstatSync(fd).ino };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Removes the dead owner's file. Moving it aside first and comparing the inode finds the case
 * where another starting server replaced it with its own lock in the meantime: that one is put back.
 */
function removeDead(file: string, ino: number) {
  const aside = `${file}.${randomUUID()}`;
  try {
    fs.renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (fs.statSync(aside).ino !== ino) {
    try {
      fs.linkSync(aside, file);
    } catch {
      // A third server holds it by now; the one moved aside notices and stops.
    }
  }
  fs.unlinkSync(aside);
}

/**
 * Takes the lock `file` for this process: a small file naming the owner, created exclusively.
 * A file left by a dead owner (crash, kill -9) is taken over at once. Throws LockHeldError while
 * a live owner holds it. `onLost` is called once if the file later stops naming this process.
 */
export function takeLock(file: string, onLost: (err: LockLostError) => void): HeldLock {
  const content = JSON.stringify(thisProcess);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (create(file, content)) return hold(file, content, onLost);
    const found = read(file);
    if (!found) continue;
    const owner = parseOwner(found.text);
    // An unreadable file was cut short by a crash (it is only ever written whole).
    if (owner && isAlive(owner)) throw new LockHeldError(file, owner);
    removeDead(file, found.ino);
  }
  throw new LockHeldError(file, undefined);
}

function hold(file: string, content: string, onLost: (err: LockLostError) => void): HeldLock {
  let lost = false;
  const stillMine = () => {
    try {
      return read(file)?.text === content;
    } catch {
      return false;
    }
  };
  const timer = setInterval(() => {
    if (stillMine()) return;
    lost = true;
    clearInterval(timer);
    onLost(new LockLostError(`${file} no longer names this process: the lock was removed or taken over.`));
  }, CHECK_EVERY_MS);
  timer.unref();
  return {
    get lost() {
      return lost;
    },
    release() {
      clearInterval(timer);
      if (!lost && stillMine()) fs.unlinkSync(file);
    },
  };
}
