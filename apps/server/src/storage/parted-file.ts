import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ReadRequest, StoredAnswer } from './storage.ts';

/** One file of a parted file, in order. */
export interface Part {
  file: string;
  size: number;
}

/**
 * Files read as one, in order: an original the local driver keeps as its upload's chunks (ADR 025,
 * eighth round). Reads, streams and byte-range answers cross the parts' boundaries.
 */
export class PartedFile {
  readonly size: number;

  constructor(
    readonly parts: Part[],
    private readonly mtime: Date,
    private readonly readChunk: number,
  ) {
    this.size = parts.reduce((n, p) => n + p.size, 0);
  }

  /** Each part's share of [start, end] (inclusive, as createReadStream's). */
  private *spans(start: number, end: number): Generator<{ file: string; start: number; end: number }> {
    let at = 0;
    for (const part of this.parts) {
      const from = Math.max(start, at);
      const to = Math.min(end, at + part.size - 1);
      if (from <= to) yield { file: part.file, start: from - at, end: to - at };
      at += part.size;
      if (at > end) return;
    }
  }

  /** Up to `length` bytes from `offset` (fewer at the end). */
  async read(offset: number, length: number): Promise<Buffer> {
    const out = Buffer.alloc(Math.max(0, Math.min(length, this.size - offset)));
    let filled = 0;
    for (const span of this.spans(offset, offset + out.length - 1)) {
      const fh = await open(span.file, 'r');
      try {
        const { bytesRead } = await fh.read(out, filled, span.end - span.start + 1, span.start);
        filled += bytesRead;
      } finally {
        await fh.close();
      }
    }
    return out.subarray(0, filled);
  }

  /** Bytes [start, end] as one stream, a part's file opened only when its turn comes. */
  stream(start = 0, end = this.size - 1): Readable {
    const spans = [...this.spans(start, end)];
    const readChunk = this.readChunk;
    return Readable.from(
      (async function* () {
        for (const span of spans) yield* createReadStream(span.file, { start: span.start, end: span.end, highWaterMark: readChunk });
      })(),
      { objectMode: false },
    );
  }

  /**
   * What the media engine opens: FFmpeg's concat protocol reads the parts as one seekable input.
   * Each path starts with `//` so the URL reads as `scheme://` and is not taken for a relative path.
   */
  engineInput(): string {
    if (this.parts.length === 1) return this.parts[0]!.file;
    return `concat:${this.parts.map((p) => `/${p.file}`).join('|')}`;
  }

  /** The answer @fastify/send gives for one file (200, 206, 304, 416; HEAD; ETag), for the parts. */
  answer(request: ReadRequest): StoredAnswer {
    const etag = `W/"${this.size.toString(16)}-${this.mtime.getTime().toString(16)}"`;
    const headers: Record<string, string | number> = { 'Accept-Ranges': 'bytes', ETag: etag, 'Last-Modified': this.mtime.toUTCString() };
    const h = request.headers;
    if (h['if-none-match'] && h['if-none-match'].split(',').some((t) => t.trim() === etag || t.trim() === '*')) {
      return { statusCode: 304, headers, body: null };
    }
    const ifRange = h['if-range'];
    const range = h.range && (!ifRange || ifRange === etag) ? parseRange(h.range, this.size) : 'whole';
    if (range === 'unsatisfiable') return { statusCode: 416, headers: { 'Content-Range': `bytes */${this.size}` }, body: null };
    const [start, end] = range === 'whole' ? [0, this.size - 1] : range;
    headers['Content-Length'] = end - start + 1;
    if (range !== 'whole') headers['Content-Range'] = `bytes ${start}-${end}/${this.size}`;
    const head = request.method === 'HEAD';
    return { statusCode: range === 'whole' ? 200 : 206, headers, body: head || this.size === 0 ? null : this.stream(start, end) };
  }
}

/**
 * One byte range (`bytes=a-b`, `bytes=a-`, `bytes=-n`) clipped to the size; 'whole' for a header that
 * is not one such range (several ranges too: the whole file answers them, as send does).
 */
export function parseRange(header: string, size: number): [number, number] | 'whole' | 'unsatisfiable' {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'whole';
  if (m[1] === '') {
    const n = Number(m[2]);
    return n === 0 || size === 0 ? 'unsatisfiable' : [Math.max(0, size - n), size - 1];
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || start > end) return 'unsatisfiable';
  return [start, end];
}
