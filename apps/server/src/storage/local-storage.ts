import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { copyFile, link, mkdir, open, readdir, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import send from '@fastify/send';
import { PartedFile } from './parted-file.ts';
import { assertSafeKey, type JoinedFile, type ReadRequest, type Storage, type StoredAnswer } from './storage.ts';

/** Larger reads than the 64 KiB default: fewer syscalls and event-loop turns per segment. */
const READ_CHUNK = 1024 * 1024;
/** Bytes a write stream buffers before it pushes back on its source (an upload chunk is 3 MB at most). */
const WRITE_BUFFER = 4 * 1024 * 1024;

/** A new file, its folder made only when missing (every upload chunk is a file in an existing folder). */
async function openForWrite(dest: string): Promise<FileHandle> {
  try {
    return await open(dest, 'w');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await mkdir(path.dirname(dest), { recursive: true });
    return open(dest, 'w');
  }
}

/**
 * Beyond this many chunks an original is copied into one file, not linked: the media engine opens
 * every part of a linked original at once, a file descriptor each (2,000 chunks: 6 GB).
 */
const MAX_LINKED_PARTS = 2000;
/** A linked original's parts, named so that their names sort in file order. */
const partName = (i: number): string => `${String(i + 1).padStart(6, '0')}.part`;
const PART_NAME = /^\d{6}\.part$/;

/** Paths per `cat` run: well under any command line's limit (a 4 GB upload has about 1,400 chunks). */
const CAT_FILES_PER_RUN = 200;

/** Runs `cat files > fd`; 'missing' when the command does not exist, and rejects when it fails (a part missing). */
function runCat(command: string, files: string[], fd: number): Promise<'done' | 'missing'> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, files, { stdio: ['ignore', fd, 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-1000)));
    child.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? resolve('missing') : reject(err)));
    child.on('close', (code) => (code === 0 ? resolve('done') : reject(new Error(`joining upload chunks failed: ${stderr.trim() || `cat exited with ${code}`}`))));
  });
}

/** The same join through Node's streams: one write stream for all parts, reads and writes overlapping. */
async function streamJoin(dest: string, sources: string[]): Promise<void> {
  const out = createWriteStream(dest, { highWaterMark: WRITE_BUFFER });
  try {
    for (const source of sources) {
      for await (const piece of createReadStream(source, { highWaterMark: READ_CHUNK })) {
        if (!out.write(piece)) await once(out, 'drain');
      }
    }
    out.end();
    await finished(out);
  } catch (err) {
    out.destroy();
    throw err;
  }
}

export interface LocalStorageOptions {
  /** The command that joins upload chunks (default `cat`); null: Node's streams do it. */
  cat?: string | null;
  /** false: joins copy the chunks (as on a file system without hard links). */
  link?: boolean;
}

/** Files under one root folder; the app serves them at `/media/...` after its checks (ADR 011). */
export class LocalStorage implements Storage {
  readonly kind = 'local' as const;

  /** The join's command; null once it was found missing (or when told so). */
  private cat: string | null;
  /** false once a link failed for want of support (or when told so). */
  private link: boolean;

  constructor(
    readonly root: string,
    private readonly baseUrl = '/media',
    options: LocalStorageOptions = {},
  ) {
    this.cat = options.cat === undefined ? 'cat' : options.cat;
    this.link = options.link ?? true;
  }

  pathOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, key);
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const dest = this.pathOf(key);
    await mkdir(path.dirname(dest), { recursive: true });
    await copyFile(localPath, dest);
  }

  async putBuffer(key: string, body: Buffer): Promise<void> {
    const dest = this.pathOf(key);
    await mkdir(path.dirname(dest), { recursive: true });
    await writeFile(dest, body);
  }

  async putStream(key: string, body: Readable): Promise<void> {
    const file = await openForWrite(this.pathOf(key));
    // A large buffer: with the default 16 KB, each 64 KB socket read waited for its own disk write
    // before the next was read (upload chunks stream straight in here, ADR 018).
    await pipeline(body, file.createWriteStream({ highWaterMark: WRITE_BUFFER }));
  }

  /**
   * The original as its chunks, hard-linked in order into a folder at its key (ADR 025, eighth
   * round): no byte is copied, and every reader here (streams, byte ranges, the media engine through
   * FFmpeg's concat protocol) reads the parts as one file. The chunks' own names stay until the
   * upload's prefix is deleted, as a copy's sources would. Where links are not made (another file
   * system, a single chunk, too many chunks, a `|` in the path, which the concat protocol splits
   * on), the kernel copies the chunks into one file (copy_file_range, through coreutils `cat`: Node
   * has no call for it), or Node's streams do where there is no `cat`.
   */
  async join(key: string, parts: string[]): Promise<JoinedFile> {
    const dest = this.pathOf(key);
    const sources = parts.map((p) => path.resolve(this.pathOf(p)));
    await mkdir(path.dirname(dest), { recursive: true });
    try {
      if (!(await this.linkJoin(dest, sources)) && !(await this.kernelJoin(dest, sources))) await streamJoin(dest, sources);
      const file = (await this.parted(key)) ?? new PartedFile([{ file: dest, size: (await stat(dest)).size }], new Date(), READ_CHUNK);
      return { source: file.engineInput(), bytes: file.size, read: (offset, length) => file.read(offset, length), release: async () => {} };
    } catch (err) {
      await rm(dest, { recursive: true, force: true });
      throw err;
    }
  }

  /** false when the chunks cannot be linked (then nothing was made). */
  private async linkJoin(dest: string, sources: string[]): Promise<boolean> {
    // One chunk is copied: a copy of 3 MB at most costs less than a folder.
    if (!this.link || sources.length < 2 || sources.length > MAX_LINKED_PARTS || [dest, ...sources].some((s) => s.includes('|'))) return false;
    await mkdir(dest);
    try {
      for (const [i, source] of sources.entries()) await link(source, path.join(dest, partName(i)));
      return true;
    } catch (err) {
      await rm(dest, { recursive: true, force: true });
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw err;
      this.link = false;
      return false;
    }
  }

  /** A key kept as linked parts (see join), or null when it is one file or nothing. */
  async parted(key: string): Promise<PartedFile | null> {
    const at = this.pathOf(key);
    let names: string[];
    try {
      names = (await readdir(at)).filter((n) => PART_NAME.test(n)).sort();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR' || code === 'ENOENT') return null;
      throw err;
    }
    if (names.length === 0) return null;
    const parts = await Promise.all(names.map(async (n) => ({ file: path.join(at, n), size: (await stat(path.join(at, n))).size })));
    return new PartedFile(parts, (await stat(at)).mtime, READ_CHUNK);
  }

  /** What the media engine opens for a key: its file, or its parts as one input. */
  async engineInput(key: string): Promise<string> {
    return (await this.parted(key))?.engineInput() ?? this.pathOf(key);
  }

  /** false when there is no `cat` to run (then nothing was written). */
  private async kernelJoin(dest: string, sources: string[]): Promise<boolean> {
    if (this.cat === null) return false;
    const out = await open(dest, 'w');
    try {
      // One open file shared by the runs: each `cat` goes on where the previous one stopped.
      for (let i = 0; i < sources.length; i += CAT_FILES_PER_RUN) {
        const run = await runCat(this.cat, sources.slice(i, i + CAT_FILES_PER_RUN), out.fd);
        if (run === 'missing') {
          this.cat = null;
          return false;
        }
      }
      return true;
    } finally {
      await out.close();
    }
  }

  async getStream(key: string): Promise<Readable> {
    const parted = await this.parted(key);
    if (parted) return parted.stream();
    return createReadStream(this.pathOf(key), { highWaterMark: READ_CHUNK });
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile() || (await this.parted(key)) !== null;
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true, recursive: (await this.parted(key)) !== null });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.pathOf(prefix.replace(/\/$/, '')), { recursive: true, force: true });
  }

  async bytesUnder(prefix: string): Promise<number> {
    const at = this.pathOf(prefix.replace(/\/$/, ''));
    const info = await stat(at).catch(() => null);
    if (!info) return 0;
    if (info.isFile()) return info.size;
    let total = 0;
    for (const entry of await readdir(at, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
    }
    return total;
  }

  async move(from: string, to: string): Promise<void> {
    const dest = this.pathOf(to);
    await mkdir(path.dirname(dest), { recursive: true });
    await rename(this.pathOf(from), dest);
  }

  async answer(key: string, request: ReadRequest): Promise<StoredAnswer | null> {
    assertSafeKey(key);
    const res = await send(request as unknown as Parameters<typeof send>[0], `/${encodeKey(key)}`, {
      root: this.root,
      dotfiles: 'allow',
      index: false,
      cacheControl: false,
      contentType: false,
      highWaterMark: READ_CHUNK,
    });
    // A folder is an original kept as its chunks (see join), or nothing to answer with.
    if (res.type === 'directory') return (await this.parted(key))?.answer(request) ?? null;
    if (res.type === 'error' && res.statusCode === 404) return null;
    if (res.type === 'error') {
      res.stream.destroy();
      // 412 and 416 keep their Content-Range; the error page send would attach is not ours.
      const headers: Record<string, string> = {};
      if (res.headers['Content-Range']) headers['Content-Range'] = res.headers['Content-Range'];
      return { statusCode: res.statusCode, headers, body: null };
    }
    return { statusCode: res.statusCode, headers: res.headers, body: res.stream };
  }

  url(key: string): string {
    assertSafeKey(key);
    return `${this.baseUrl}/${encodeKey(key)}`;
  }
}

export const encodeKey = (key: string): string => key.split('/').map(encodeURIComponent).join('/');
