import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { assertSafeKey, type Storage } from './storage.ts';

/** Files under one root folder, served by the app at `/media/{key}`. */
export class LocalStorage implements Storage {
  readonly kind = 'local' as const;

  constructor(
    readonly root: string,
    private readonly baseUrl = '/media',
  ) {}

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

  async getStream(key: string): Promise<Readable> {
    return createReadStream(this.pathOf(key));
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.pathOf(prefix.replace(/\/$/, '')), { recursive: true, force: true });
  }

  url(key: string): string {
    assertSafeKey(key);
    return `${this.baseUrl}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }
}
