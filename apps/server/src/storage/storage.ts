import type { Readable } from 'node:stream';

/**
 * Where media lives. Keys are relative paths such as `videos/{id}/hls/master.m3u8`;
 * the driver turns a key into the URL a browser loads.
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  putFile(key: string, localPath: string, contentType?: string): Promise<void>;
  putBuffer(key: string, body: Buffer, contentType?: string): Promise<void>;
  getStream(key: string): Promise<Readable>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with prefix (a whole video's folder). */
  deletePrefix(prefix: string): Promise<void>;
  /** Public URL of a key. */
  url(key: string): string;
}

/** Keys come from our own ids; this guards against a key escaping its folder. */
export function assertSafeKey(key: string): void {
  if (!key || key.startsWith('/') || key.split('/').some((p) => p === '..' || p === '') || /[\\\0]/.test(key)) {
    throw new Error(`Unsafe storage key: ${key}`);
  }
}
