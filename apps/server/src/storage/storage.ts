import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

/** What a driver needs of an HTTP request to answer it: HEAD or GET, Range, conditional headers. */
export interface ReadRequest {
  method?: string;
  headers: IncomingHttpHeaders;
}

/** A stored file as an HTTP answer (200, 206, 304, 416...): status, the driver's headers, the body. */
export interface StoredAnswer {
  statusCode: number;
  headers: Record<string, string | number>;
  body: Readable | null;
}

/**
 * Where media lives. Keys are relative paths such as `videos/{id}/hls/master.m3u8`;
 * the driver turns a key into the URL a browser loads.
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  putFile(key: string, localPath: string, contentType?: string): Promise<void>;
  putBuffer(key: string, body: Buffer, contentType?: string): Promise<void>;
  /** Writes a stream of at most a few MB (an upload chunk) to a new key; rejects, writing nothing usable, when the stream fails. */
  putStream(key: string, body: Readable): Promise<void>;
  getStream(key: string): Promise<Readable>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with prefix (a whole video's folder). */
  deletePrefix(prefix: string): Promise<void>;
  /** Bytes stored under a key: the file it names, or every object of the folder it names (0 when none). */
  bytesUnder(prefix: string): Promise<number>;
  /**
   * Joins the objects `parts`, in order, into the new object `key` (the parts stay) and gives back
   * what the checks need (the probe's input, reads for the box check): the local driver links the
   * parts into the key without copying a byte (ADR 025, eighth round) and reads them where they
   * are; S3 uploads the object in parts while it writes a copy into `scratch`. `release()` removes
   * only that scratch copy. A failed join leaves neither `key` nor the copy behind.
   */
  join(key: string, parts: string[], scratch: string): Promise<JoinedFile>;
  /** Renames a key (same storage); the old key is gone afterwards. */
  move(from: string, to: string): Promise<void>;
  /** The file as an answer to `request` (byte ranges, HEAD, ETag), or null when the key holds nothing. */
  answer(key: string, request: ReadRequest): Promise<StoredAnswer | null>;
  /** Public URL of a key. */
  url(key: string): string;
}

/** The joined bytes as the checks read them (see Storage.join). */
export interface JoinedFile {
  /** What the media engine opens: a local file, or the parts as one input. */
  source: string;
  bytes: number;
  /** Up to `length` bytes from `offset`. */
  read(offset: number, length: number): Promise<Buffer>;
  release(): Promise<void>;
}

/** Keys come from our own ids; this guards against a key escaping its folder. */
export function assertSafeKey(key: string): void {
  if (!key || key.startsWith('/') || key.split('/').some((p) => p === '..' || p === '') || /[\\\0]/.test(key)) {
    throw new Error(`Unsafe storage key: ${key}`);
  }
}
