import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import { z } from 'zod';
import {
  CHUNK_BYTES,
  uploadChunkFields,
  videoDescription,
  videoMessages,
  videoTitle,
  type UploadQuery,
  type UploadStatus,
} from '@glimpse/contract';
import { checkTopLevelBoxes, isMp4Family, NOT_A_VIDEO, ProbeError, type ProbeResult } from '@glimpse/media';
import type { AppContext } from '../../context.ts';
import { ApiError, badRequest, conflict, notFound, tooLarge, tooMany } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { EncodedImage } from '../../lib/images.ts';
import type { MultipartResult } from '../../lib/multipart.ts';
import { JobsRepository } from '../../jobs/jobs.repository.ts';
import { originalKey, videoPrefixes } from '../../storage/media-keys.ts';
import { parseFields } from '../videos/form.ts';
import { prepareThumbnail, storeThumbnail } from '../videos/thumbnail.ts';
import { VideosRepository } from '../videos/videos.repository.ts';
import { VideosService } from '../videos/videos.service.ts';
import { chunkNumbers, firstChunkOf, fitsNumbering, missingChunks } from './chunk-numbering.ts';
import { UploadsRepository } from './uploads.repository.ts';

export const TRANSCODE_QUEUE = 'transcode';
const MB = 1024 * 1024;

const lastChunkFields = z.object({
  title: z.string({ message: videoMessages.titleRequired }).pipe(videoTitle),
  description: videoDescription.default(''),
});

/** Resumable chunked uploads: chunks land in DATA_DIR/uploads/{userId}/{uniqueId}/ until the last one. */
export class UploadsService {
  private readonly sessions: UploadsRepository;
  private readonly videos: VideosService;

  constructor(private readonly ctx: AppContext) {
    this.sessions = new UploadsRepository(ctx.db);
    this.videos = new VideosService(ctx);
  }

  private dir(userId: string, uniqueId: string): string {
    return path.join(this.ctx.config.dataDir, 'uploads', userId, uniqueId);
  }

  async status(userId: string, uniqueId: string): Promise<UploadStatus> {
    const session = await this.sessions.find(userId, uniqueId);
    if (!session) throw notFound('Upload not found');
    const chunks = await this.sessions.chunks(userId, uniqueId);
    return {
      uniqueId,
      totalChunks: session.total_chunks,
      receivedChunks: chunks.map((c) => c.chunk_number),
      receivedBytes: chunks.reduce((n, c) => n + Number(c.size), 0),
    };
  }

  /** Stores one chunk; on the flagged last chunk, assembles, probes and creates the video. */
  async receive(userId: string, q: UploadQuery, form: MultipartResult): Promise<{ status: UploadStatus } | { videoId: string }> {
    await this.ctx.media.assertUsable();
    const limitBytes = this.ctx.config.limits.videoMb * MB;
    if (q.chunkNumber > q.totalChunks) throw badRequest('chunkNumber must be from 0 to totalChunks-1, or from 1 to totalChunks');
    // The spec's client sends full 3 MB chunks: more chunks than the limit allows is over the limit.
    if (q.totalChunks > Math.ceil(limitBytes / CHUNK_BYTES)) throw tooLarge(this.ctx.config.limits.videoMb);
    const chunk = form.files.video;
    if (!chunk) throw badRequest('Video chunk is required');
    if (chunk.size === 0) throw badRequest('Video chunk is empty');
    const isLast = parseFields(uploadChunkFields, form.fields).isLastChunk;
    // Everything the last chunk carries is checked before anything is stored.
    const meta = isLast ? parseFields(lastChunkFields, form.fields) : undefined;
    const image = isLast ? form.files.image : undefined;
    const thumbnail = image ? await prepareThumbnail(image.path) : undefined;

    const existing = await this.sessions.find(userId, q.uniqueId);
    if (existing && existing.total_chunks !== q.totalChunks) {
      throw badRequest(`totalChunks does not match this upload (${existing.total_chunks})`);
    }
    if (!(await this.admit(userId, q, chunk.path, chunk.size))) {
      await this.discard(userId, q.uniqueId);
      throw tooLarge(this.ctx.config.limits.videoMb);
    }
    const status = await this.status(userId, q.uniqueId);
    if (!isLast) return { status };

    // Chunks are admitted one at a time per account, so a session holds one numbering only.
    const missing = missingChunks(status.receivedChunks, q.totalChunks);
    if (missing.length > 0) {
      throw new ApiError(400, `Missing chunks: ${missing.join(', ')}`, { missingChunks: missing, ...status });
    }
    if (!(await this.sessions.claimFinalize(userId, q.uniqueId))) throw conflict('This upload is already being finished');
    try {
      const parts = chunkNumbers(firstChunkOf(status.receivedChunks, q.totalChunks)!, q.totalChunks);
      const videoId = await this.finish(userId, q, parts, meta!, thumbnail);
      return { videoId };
    } catch (err) {
      await this.sessions.releaseFinalize(userId, q.uniqueId);
      throw err;
    }
  }

  /**
   * Stores the chunk within the bounds: the numbering the session already shows (400), the video
   * size for this upload (false when over it), and per account the open uploads and the bytes they
   * hold together (429). One account's chunks are admitted one at a time, so parallel requests
   * cannot all pass the same check.
   */
  private async admit(userId: string, q: UploadQuery, file: string, size: number): Promise<boolean> {
    const { limits, uploadSessionTtlHours } = this.ctx.config;
    const wait = `Finish one, or wait until it expires ${uploadSessionTtlHours} hours after its last chunk`;
    return this.ctx.db.transaction(async (tx) => {
      const sessions = new UploadsRepository(tx);
      await sessions.lockOwner(userId);
      const held = (await sessions.chunks(userId, q.uniqueId)).map((c) => c.chunk_number);
      if (!fitsNumbering(q.chunkNumber, held, q.totalChunks)) {
        const first = firstChunkOf(held, q.totalChunks)!;
        throw badRequest(`This upload numbers its chunks from ${first} to ${first + q.totalChunks - 1}`);
      }
      const usage = await sessions.usage(userId, q.uniqueId, q.chunkNumber);
      if (!usage.sessionExists && usage.openSessions >= limits.openUploads) {
        throw tooMany(`You have ${usage.openSessions} unfinished uploads, the most allowed. ${wait}, before starting another.`, {
          openUploads: usage.openSessions,
          limit: limits.openUploads,
        });
      }
      if (usage.sessionBytes + size > limits.videoMb * MB) return false;
      if (usage.heldBytes + size > limits.uploadsHeldMb * MB) {
        throw tooMany(`Your unfinished uploads would hold more than ${limits.uploadsHeldMb} MB, the most allowed. ${wait}, before sending more.`, {
          heldBytes: usage.heldBytes,
          limitMb: limits.uploadsHeldMb,
        });
      }
      await sessions.open(userId, q.uniqueId, q.totalChunks);
      const dir = this.dir(userId, q.uniqueId);
      await mkdir(dir, { recursive: true });
      // rename is atomic: a retried or duplicated chunk replaces the file whole, never half-written.
      await rename(file, path.join(dir, `${q.chunkNumber}.part`));
      await sessions.addChunk(userId, q.uniqueId, q.chunkNumber, size);
      return true;
    });
  }

  /** The chunks `parts` joined in order, or a 400 (saying why) after removing the whole session when they cannot become a video. */
  private async assembleAndProbe(userId: string, q: UploadQuery, parts: number[]): Promise<{ file: string; probe: ProbeResult }> {
    const dir = this.dir(userId, q.uniqueId);
    const file = path.join(dir, 'assembled');
    const out = createWriteStream(file);
    for (const n of parts) {
      await pipeline(createReadStream(path.join(dir, `${n}.part`)), out, { end: false });
    }
    out.end();
    await finished(out);
    try {
      const probed = await this.ctx.media.inspect(file);
      // The demuxer accepts a cut-off mp4 whose index comes first; its boxes tell.
      if (isMp4Family(probed)) await this.checkBoxes(file);
      return { file, probe: probed };
    } catch (err) {
      if (err instanceof ProbeError) {
        await this.discard(userId, q.uniqueId);
        throw badRequest(err.message);
      }
      throw err;
    }
  }

  private async checkBoxes(file: string): Promise<void> {
    const { size } = await stat(file);
    const fh = await open(file, 'r');
    try {
      const boxes = await checkTopLevelBoxes(async (offset, length) => {
        const buf = Buffer.alloc(length);
        const { bytesRead } = await fh.read(buf, 0, length, offset);
        return buf.subarray(0, bytesRead);
      }, size);
      if (!boxes.ok) throw new ProbeError(NOT_A_VIDEO);
    } finally {
      await fh.close();
    }
  }

  private async finish(
    userId: string,
    q: UploadQuery,
    parts: number[],
    meta: z.infer<typeof lastChunkFields>,
    thumbnail: EncodedImage | undefined,
  ): Promise<string> {
    const { file, probe: probed } = await this.assembleAndProbe(userId, q, parts);
    const id = newId();
    const sourceKey = originalKey(id);
    try {
      await this.ctx.storage.putFile(sourceKey, file);
      const thumbnailKey = thumbnail ? await storeThumbnail(this.ctx.storage, id, thumbnail) : null;
      await this.ctx.db.transaction(async (tx) => {
        await new VideosRepository(tx).insert({
          id,
          ownerId: userId,
          title: meta.title,
          description: meta.description,
          duration: probed.durationSeconds,
          width: probed.width,
          height: probed.height,
          isPublished: false,
          status: 'processing',
          sourceKey,
          thumbnailKey,
        });
        await new JobsRepository(tx).enqueue(TRANSCODE_QUEUE, { videoId: id }, { ownerId: userId });
      });
    } catch (err) {
      for (const prefix of videoPrefixes(id)) await this.ctx.storage.deletePrefix(prefix);
      throw err;
    }
    await this.discard(userId, q.uniqueId);
    return id;
  }

  private async discard(userId: string, uniqueId: string): Promise<void> {
    await this.sessions.remove(userId, uniqueId);
    await rm(this.dir(userId, uniqueId), { recursive: true, force: true });
  }

  /** Removes sessions idle past UPLOAD_SESSION_TTL_HOURS and their chunk files (run by the worker). */
  async sweepExpired(): Promise<number> {
    const gone = await this.sessions.removeIdle(this.ctx.config.uploadSessionTtlHours);
    for (const s of gone) await rm(this.dir(s.user_id, s.unique_id), { recursive: true, force: true });
    return gone.length;
  }

  video(id: string, viewerId: string) {
    return this.videos.get(id, viewerId);
  }
}
