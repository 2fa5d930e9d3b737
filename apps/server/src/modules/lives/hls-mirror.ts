import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Storage } from '../../storage/storage.ts';

/**
 * Copies a live's HLS folder, as the engine writes it, to the storage (local disk or S3) while the
 * live runs: each new segment once it is complete (the muxer writes to a temporary name first),
 * then the playlists that name it, so a playlist never names a segment the storage lacks; segments
 * the muxer dropped from its window are deleted from the storage too.
 */
export class HlsMirror {
  private readonly sent = new Set<string>();
  /** Segments stored so far, in all (the live has aired once this is above 0). */
  stored = 0;
  private readonly playlists = new Map<string, number>();
  private running: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly dir: string,
    private readonly storage: Storage,
    private readonly prefix: string,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(everyMs: number) {
    this.timer = setInterval(() => void this.sync(), everyMs);
  }

  /** One pass; passes never overlap. */
  sync(): Promise<void> {
    this.running = this.running.then(() => this.pass()).catch(this.onError);
    return this.running;
  }

  /** The last pass, after the engine has finished (its playlists then say the live has ended). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sync();
  }

  private async pass() {
    const rungs = (await readdir(this.dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
    for (const rung of rungs) {
      const files = await readdir(path.join(this.dir, rung));
      const here = new Set(files.map((f) => `${rung}/${f}`));
      for (const f of files.filter((name) => /^seg_\d{6}\.ts$/.test(name)).sort()) {
        const rel = `${rung}/${f}`;
        if (this.sent.has(rel)) continue;
        await this.storage.putFile(`${this.prefix}/${rel}`, path.join(this.dir, rel));
        this.sent.add(rel);
        this.stored += 1;
      }
      if (files.includes('index.m3u8')) {
        const rel = `${rung}/index.m3u8`;
        const file = path.join(this.dir, rel);
        const mtime = (await stat(file)).mtimeMs;
        if (this.playlists.get(rel) !== mtime) {
          await this.storage.putFile(`${this.prefix}/${rel}`, file);
          this.playlists.set(rel, mtime);
        }
      }
      for (const rel of [...this.sent].filter((r) => r.startsWith(`${rung}/`) && !here.has(r))) {
        await this.storage.delete(`${this.prefix}/${rel}`);
        this.sent.delete(rel);
      }
    }
  }
}
