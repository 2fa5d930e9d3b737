import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Who holds an embedded database: written to `<dir>.lock` when it is opened. */
export interface LockHolder {
  pid: number;
  host: string;
  command: string;
  startedAt: string;
  /** Linux boot id: a holder recorded before the last reboot is gone. */
  bootId?: string;
}

export class DatabaseLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly lockFile: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The embedded database in ${dir} is already in use by another process:\n` +
        `  pid ${holder.pid} on host ${holder.host}, since ${holder.startedAt}\n` +
        `  command: ${holder.command}\n` +
        'The embedded database (PGlite) belongs to one process at a time; a second one would corrupt it.\n' +
        '- Stop that process first, or\n' +
        '- to run `npm run worker` or several servers side by side, use a PostgreSQL server: set DATABASE_URL for every process.\n' +
        `If that process no longer exists (on another machine, say), delete ${lockFile}.`,
    );
  }
}

/** Lock files this process holds: a second open here is refused too, and our own pid in a file we do not hold is stale. */
const heldHere = new Set<string>();

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

function readHolder(file: string): LockHolder | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LockHolder;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    // Unreadable content: no process can be named, so nothing proves it alive.
    return { pid: 0, host: hostname(), command: 'unknown', startedAt: 'unknown' };
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A holder on this machine whose process is gone (killed, crashed, or from before a reboot). */
function isStale(holder: LockHolder, file: string): boolean {
  if (holder.host !== hostname()) return false;
  const boot = bootId();
  if (holder.bootId && boot && holder.bootId !== boot) return true;
  // Our pid in a file this process never took: a previous life under the same pid (pid 1 in a container).
  if (holder.pid === process.pid) return !heldHere.has(file);
  return holder.pid <= 0 || !isAlive(holder.pid);
}

const same = (a: LockHolder, b: LockHolder) => a.pid === b.pid && a.host === b.host && a.startedAt === b.startedAt;

/** Links our holder file into place; false when a lock file is already there. */
function tryLink(mine: string, file: string): boolean {
  try {
    linkSync(mine, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/**
 * Moves a stale lock out of the way. A racer may have replaced it with its own live lock between
 * our read and the rename: that one is put back.
 */
function setAsideIfStill(file: string, stale: LockHolder): void {
  const aside = `${file}.stale.${process.pid}`;
  try {
    renameSync(file, aside);
  } catch {
    return;
  }
  const moved = readHolder(aside);
  if (moved && !same(moved, stale)) tryLink(aside, file);
  unlinkSync(aside);
}

/**
 * Takes `<dir>.lock` for this process, or throws DatabaseLockedError naming the holder. A lock left
 * by a process that no longer runs on this host is taken over. Returns the release function.
 */
export function lockDatabaseDir(dir: string, command = process.argv.slice(1).join(' ')): () => void {
  const file = `${dir}.lock`;
  const me: LockHolder = { pid: process.pid, host: hostname(), command, startedAt: new Date().toISOString(), bootId: bootId() };
  // Written whole to a private file, then linked into place: link fails if the lock exists, so
  // taking it is atomic and a reader never sees a half-written holder.
  const mine = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  writeFileSync(mine, JSON.stringify(me));
  try {
    for (let tries = 0; !tryLink(mine, file); tries++) {
      const holder = readHolder(file);
      if (!holder) continue;
      if (tries >= 5 || !isStale(holder, file)) throw new DatabaseLockedError(dir, file, holder);
      setAsideIfStill(file, holder);
    }
  } finally {
    unlinkSync(mine);
  }
  heldHere.add(file);
  const release = () => {
    if (!heldHere.delete(file)) return;
    const holder = readHolder(file);
    if (holder && same(holder, me)) unlinkSync(file);
  };
  // A crash still releases it; only SIGKILL leaves it behind (and the next start takes it over).
  process.once('exit', release);
  return () => {
    process.off('exit', release);
    release();
  };
}
