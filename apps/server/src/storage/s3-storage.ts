import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { rm, stat } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { Config } from '../config.ts';
import { contentTypeOf } from './content-types.ts';
import { PartedFile } from './parted-file.ts';
import { assertSafeKey, type JoinedFile, type ReadRequest, type Storage, type StoredAnswer } from './storage.ts';

type S3Config = NonNullable<Config['s3']>;

/**
 * Bytes per part of a joined object: S3 refuses parts under 5 MiB but the last, so the 3 MB upload
 * chunks cannot be parts themselves (ADR 018); each part is a few chunks, uploaded while the next
 * ones are read.
 */
const JOIN_PART_BYTES = 8 * 1024 * 1024;

const statusOf = (err: unknown): number | undefined => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const header = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** Objects in an S3-compatible bucket; browsers load them from S3_PUBLIC_URL (a CDN) or the endpoint. */
export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly publicBase: string;

  constructor(
    config: S3Config,
    private readonly joinPartBytes = JOIN_PART_BYTES,
  ) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      // Checksums only where S3 requires them: streamed bodies then go as plain uploads, not
      // aws-chunked with trailers, which several S3-compatible servers store verbatim.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
    });
    const endpoint = (config.endpoint ?? `https://s3.${config.region}.amazonaws.com`).replace(/\/$/, '');
    this.publicBase = (config.publicUrl ?? `${endpoint}/${config.bucket}`).replace(/\/$/, '');
  }

  async putFile(key: string, localPath: string, contentType = contentTypeOf(key)): Promise<void> {
    assertSafeKey(key);
    const { size } = await stat(localPath);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: createReadStream(localPath),
        ContentLength: size,
        ContentType: contentType,
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    );
  }

  async putBuffer(key: string, body: Buffer, contentType = contentTypeOf(key)): Promise<void> {
    assertSafeKey(key);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    );
  }

  /** Held in memory first: PutObject needs the length, and a chunk is at most 3 MB. */
  async putStream(key: string, body: Readable): Promise<void> {
    const parts: Buffer[] = [];
    for await (const part of body) parts.push(part as Buffer);
    await this.putBuffer(key, Buffer.concat(parts), 'application/octet-stream');
  }

  /**
   * Reads the parts in order into the scratch file and, at the same time, uploads them as one
   * multipart object (a part of a few chunks is sent while the next chunks are read): the last chunk
   * waits for the slower of the two transfers, not for both one after the other.
   */
  async join(key: string, parts: string[], scratch: string): Promise<JoinedFile> {
    assertSafeKey(key);
    const target = { Bucket: this.bucket, Key: key };
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({ ...target, ContentType: contentTypeOf(key), CacheControl: 'public, max-age=31536000, immutable' }),
    );
    const out = createWriteStream(scratch, { highWaterMark: this.joinPartBytes });
    const etags: { PartNumber: number; ETag: string | undefined }[] = [];
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let bytes = 0;
    let sending: Promise<void> = Promise.resolve();
    // One part in flight at a time, sent while the next chunks are read (its memory: two parts at most).
    const send = async () => {
      const body = Buffer.concat(pending);
      const PartNumber = etags.length + 1;
      const slot = { PartNumber, ETag: undefined as string | undefined };
      etags.push(slot);
      pending = [];
      pendingBytes = 0;
      await sending;
      sending = this.client.send(new UploadPartCommand({ ...target, UploadId, PartNumber, Body: body })).then((r) => {
        slot.ETag = r.ETag;
      });
      // Awaited at the next part or at the end; marked handled meanwhile, so a failure is not an unhandled rejection.
      sending.catch(() => {});
    };
    try {
      for (const part of parts) {
        for await (const piece of await this.getStream(part)) {
          const buf = piece as Buffer;
          bytes += buf.length;
          pending.push(buf);
          pendingBytes += buf.length;
          if (!out.write(buf)) await once(out, 'drain');
          if (pendingBytes >= this.joinPartBytes) await send();
        }
      }
      if (pendingBytes > 0 || etags.length === 0) await send();
      out.end();
      await Promise.all([finished(out), sending]);
      await this.client.send(new CompleteMultipartUploadCommand({ ...target, UploadId, MultipartUpload: { Parts: etags } }));
    } catch (err) {
      out.destroy();
      await sending.catch(() => {});
      await this.client.send(new AbortMultipartUploadCommand({ ...target, UploadId })).catch(() => {});
      await rm(scratch, { force: true });
      throw err;
    }
    const copy = new PartedFile([{ file: scratch, size: bytes }], new Date(), JOIN_PART_BYTES);
    return { source: scratch, bytes, read: (offset, length) => copy.read(offset, length), release: () => rm(scratch, { force: true }) };
  }

  async getStream(key: string): Promise<Readable> {
    assertSafeKey(key);
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return res.Body as Readable;
  }

  async exists(key: string): Promise<boolean> {
    assertSafeKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (err) {
      if (statusOf(err) === 404) return false;
      throw err;
    }
  }

  async move(from: string, to: string): Promise<void> {
    assertSafeKey(from);
    assertSafeKey(to);
    await this.client.send(
      new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: `${this.bucket}/${from.split('/').map(encodeURIComponent).join('/')}` }),
    );
    await this.delete(from);
  }

  /** Range and conditional headers go to the bucket, which answers them; its status and headers come back. */
  async answer(key: string, request: ReadRequest): Promise<StoredAnswer | null> {
    assertSafeKey(key);
    const input = {
      Bucket: this.bucket,
      Key: key,
      Range: header(request.headers.range),
      IfNoneMatch: header(request.headers['if-none-match']),
    };
    try {
      const head = request.method === 'HEAD';
      const res = head ? await this.client.send(new HeadObjectCommand(input)) : await this.client.send(new GetObjectCommand(input));
      const headers: Record<string, string | number> = { 'Accept-Ranges': 'bytes' };
      if (res.ContentLength !== undefined) headers['Content-Length'] = res.ContentLength;
      if (res.ETag) headers.ETag = res.ETag;
      if (res.LastModified) headers['Last-Modified'] = res.LastModified.toUTCString();
      const range = 'ContentRange' in res ? res.ContentRange : undefined;
      if (range) headers['Content-Range'] = range;
      // HEAD: an empty body that keeps the Content-Length of the object.
      const body = 'Body' in res ? (res.Body as Readable) : Readable.from([]);
      return { statusCode: range ? 206 : 200, headers, body };
    } catch (err) {
      const status = statusOf(err);
      if (status === 404) return null;
      if (status === 304 || status === 412 || status === 416) return { statusCode: status, headers: {}, body: null };
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    const normalized = `${prefix.replace(/\/$/, '')}/`;
    assertSafeKey(normalized.slice(0, -1));
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: normalized, ContinuationToken: token }),
      );
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length > 0) {
        await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async bytesUnder(prefix: string): Promise<number> {
    const key = prefix.replace(/\/$/, '');
    assertSafeKey(key);
    let total = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: key, ContinuationToken: token }));
      // The key itself, or what lies in its folder: `videos/v2` is not `videos/v22/...`.
      for (const o of page.Contents ?? []) if (o.Key === key || o.Key?.startsWith(`${key}/`)) total += o.Size ?? 0;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return total;
  }

  url(key: string): string {
    assertSafeKey(key);
    return `${this.publicBase}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  close(): void {
    this.client.destroy();
  }
}
