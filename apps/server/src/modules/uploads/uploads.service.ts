import { createWriteStream } from 'node:fs';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { z } from 'zod';
import {
  CHUNK_BYTES,
  uploadChunkFields,
  videoDescription,
  videoMessages,
  videoPrivacyFields,
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
import { TRANSCODE_QUEUE } from '../transcode/queue.ts';
import { JobsRepository } from '../../jobs/jobs.repository.ts';
import { originalKey, uploadChunkKey, uploadPrefix, videoPrefixes } from '../../storage/media-keys.ts';
import { QuotaExceeded, QuotaService } from '../quota/quota.service.ts';
import { StorageUsageRepository } from '../quota/storage-usage.repository.ts';
import { parseFields } from '../../lib/form.ts';
import { prepareThumbnail, storeThumbnail } from '../videos/thumbnail.ts';
import { VideosRepository } from '../videos/videos.repository.ts';
import { VideosService } from '../videos/videos.service.ts';
import { privacyChange, schedulePublication, type PrivacyChange } from '../videos/privacy.ts';
import { firstChunkOf, missingChunks } from './chunk-numbering.ts';
import { UploadsRepository } from './uploads.repository.ts';

const MB = 1024 * 1024;
/** Expired sessions removed per maintenance turn: bounded work, the rest go on the next turns. */
const SWEEP_BATCH = 100;
const ALREADY_FINISHING = 'This upload is already being finished';

const lastChunkFields = z
  .object({
    title: z.string({ message: videoMessages.titleRequired }).pipe(videoTitle),
    description: videoDescription.default(''),
  })
  .extend(videoPrivacyFields.shape);

/** The last chunk's fields, with the privacy they ask for (private when they name none). */
export type FinishMeta = Omit<z.infer<typeof lastChunkFields>, 'privacy'> & { privacy: PrivacyChange };

/** Resumable chunked uploads: chunks land in the storage under uploads/{userId}/{uniqueId}/ until the last one (ADR 018). */
export class UploadsService {
  private readonly sessions: UploadsRepository;
  private readonly videos: VideosService;
  private readonly quota: QuotaService;

  constructor(private readonly ctx: AppContext) {
    this.sessions = new UploadsRepository(ctx.db);
    this.videos = new VideosService(ctx);
    this.quota = new QuotaService(ctx);
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

  /**
   * The client gave up an unfinished upload (the web app sends chunks before the form is filled in,
   * and the person changed the file or closed the form): its chunks go now rather than holding the
   * account's open-upload and held-bytes bounds until the session expires. 409 while its last chunk
   * is being assembled.
   */
  async cancel(userId: string, uniqueId: string): Promise<void> {
    const removed = await this.ctx.db.transaction(async (tx) => {
      const sessions = new UploadsRepository(tx);
      await sessions.lockOwner(userId);
      if (await sessions.removeUnclaimed(userId, uniqueId)) return true;
      if (await sessions.find(userId, uniqueId)) throw conflict(ALREADY_FINISHING);
      return false;
    });
    if (!removed) throw notFound('Upload not found');
    await this.ctx.storage.deletePrefix(uploadPrefix(userId, uniqueId));
  }

  /**
   * Stores one chunk, streamed by `read` straight into the storage under a fresh key; on the
   * flagged last chunk, assembles, probes and creates the video. A request that fails before its
   * chunk is recorded leaves no object behind.
   */
  async receive(
    userId: string,
    q: UploadQuery,
    read: (sink: (body: Readable) => Promise<void>) => Promise<MultipartResult>,
  ): Promise<{ status: UploadStatus } | { videoId: string }> {
    await this.ctx.media.assertUsable();
    const limitBytes = this.ctx.config.limits.videoMb * MB;
    if (q.chunkNumber > q.totalChunks) throw badRequest('chunkNumber must be from 0 to totalChunks-1, or from 1 to totalChunks');
    // The spec's client sends full 3 MB chunks: more chunks than the limit allows is over the limit.
    if (q.totalChunks > Math.ceil(limitBytes / CHUNK_BYTES)) throw tooLarge(this.ctx.config.limits.videoMb);
    const key = uploadChunkKey(userId, q.uniqueId, q.chunkNumber, newId());
    let written = false;
    let recorded = false;
    let form: MultipartResult | undefined;
    try {
      form = await read((body) => {
        written = true;
        return this.ctx.storage.putStream(key, body);
      });
      const chunk = form.files.video;
      if (!chunk) throw badRequest('Video chunk is required');
      if (chunk.size === 0) throw badRequest('Video chunk is empty');
      const isLast = parseFields(uploadChunkFields, form.fields).isLastChunk;
      // Everything the last chunk carries is checked before the chunk is recorded.
      const fields = isLast ? parseFields(lastChunkFields, form.fields) : undefined;
      const meta = fields && { ...fields, privacy: privacyChange(fields, 'private') ?? { privacy: 'private' as const, publishAt: null } };
      const image = isLast ? form.files.image : undefined;
      const thumbnail = image ? await prepareThumbnail(image.path) : undefined;

      const admitted = await this.admit(userId, q, key, chunk.size);
      recorded = true;
      // A retried chunk's earlier object is no longer named by any row.
      if (admitted.replacedKey) await this.ctx.storage.delete(admitted.replacedKey);
      const status: UploadStatus = { uniqueId: q.uniqueId, totalChunks: q.totalChunks, receivedChunks: admitted.received, receivedBytes: admitted.receivedBytes };
      if (!isLast) return { status };
      return { videoId: await this.finalize(userId, q, status, meta!, thumbnail) };
    } finally {
      await form?.cleanup();
      if (written && !recorded) await this.ctx.storage.delete(key);
    }
  }

  /** Records the chunk within its bounds (ADR 005, one statement: ADR 018), or throws why it cannot be. */
  private async admit(userId: string, q: UploadQuery, key: string, size: number) {
    const { limits, uploadSessionTtlHours } = this.ctx.config;
    const wait = `Finish one, or wait until it expires ${uploadSessionTtlHours} hours after its last chunk`;
    const record = { userId, uniqueId: q.uniqueId, totalChunks: q.totalChunks, chunkNumber: q.chunkNumber, size, objectKey: key };
    const bounds = { sessionBytes: limits.videoMb * MB, heldBytes: limits.uploadsHeldMb * MB, openSessions: limits.openUploads };
    const admitted = await this.sessions.admit(record, bounds);
    switch (admitted.outcome) {
      case 'ok':
        break;
      case 'finalizing':
        throw conflict(ALREADY_FINISHING);
      case 'total_mismatch':
        throw badRequest(`totalChunks does not match this upload (${admitted.totalChunks})`);
      case 'numbering': {
        const first = firstChunkOf(admitted.received, q.totalChunks)!;
        throw badRequest(`This upload numbers its chunks from ${first} to ${first + q.totalChunks - 1}`);
      }
      case 'too_many_open':
        throw tooMany(`You have ${admitted.openSessions} unfinished uploads, the most allowed. ${wait}, before starting another.`, {
          openUploads: admitted.openSessions,
          limit: limits.openUploads,
        });
      case 'too_much_held':
        throw tooMany(`Your unfinished uploads would hold more than ${limits.uploadsHeldMb} MB, the most allowed. ${wait}, before sending more.`, {
          heldBytes: admitted.heldBytes,
          limitMb: limits.uploadsHeldMb,
        });
      case 'too_large':
        await this.discard(userId, q.uniqueId);
        throw tooLarge(limits.videoMb);
    }
    // A new upload is refused when even its smallest possible size is over a quota (and removed: it held only this chunk).
    if (admitted.created) {
      try {
        await this.quota.check(userId, QuotaService.leastBytes(q.totalChunks));
      } catch (err) {
        await this.discard(userId, q.uniqueId);
        throw err;
      }
    }
    return admitted;
  }

  /** The last chunk: every chunk must be there; one request at a time assembles the video. */
  private async finalize(userId: string, q: UploadQuery, status: UploadStatus, meta: FinishMeta, thumbnail: EncodedImage | undefined): Promise<string> {
    // The session holds one numbering only (the admission refuses the other).
    const missing = missingChunks(status.receivedChunks, q.totalChunks);
    if (missing.length > 0) {
      throw new ApiError(400, `Missing chunks: ${missing.join(', ')}`, { missingChunks: missing, ...status });
    }
    // Under the account's lock, as admissions: a chunk is either recorded before the claim (and
    // assembled) or refused after it, never replaced while the assembly reads it.
    const claimed = await this.ctx.db.transaction(async (tx) => {
      const sessions = new UploadsRepository(tx);
      await sessions.lockOwner(userId);
      return sessions.claimFinalize(userId, q.uniqueId);
    });
    if (!claimed) throw conflict(ALREADY_FINISHING);
    try {
      return await this.finish(userId, q, meta, thumbnail);
    } catch (err) {
      // Over a quota, the upload cannot become a video: its chunks go. Otherwise it may be retried.
      if (err instanceof QuotaExceeded) await this.discard(userId, q.uniqueId);
      else await this.sessions.releaseFinalize(userId, q.uniqueId);
      throw err;
    }
  }

  /**
   * The session's chunks joined in file order from the storage into a local file (the probe and the
   * box check read it), or a 400 (saying why) after removing the whole session when they cannot become a video.
   */
  private async assembleAndProbe(userId: string, q: UploadQuery, file: string): Promise<ProbeResult> {
    const chunks = await this.sessions.chunks(userId, q.uniqueId);
    await mkdir(path.dirname(file), { recursive: true });
    // One write stream for all chunks: reads and writes overlap (a write waits only on a full buffer).
    const out = createWriteStream(file, { highWaterMark: 4 * MB });
    try {
      for (const c of chunks) {
        for await (const piece of await this.ctx.storage.getStream(c.object_key)) {
          if (!out.write(piece)) await once(out, 'drain');
        }
      }
    } finally {
      out.end();
      await finished(out);
    }
    try {
      // The admin's limit (instance settings; MAX_VIDEO_MINUTES until they change it).
      const probed = await this.ctx.media.inspect(file, (await this.ctx.settings.get()).maxVideoMinutes * 60);
      // The demuxer accepts a cut-off mp4 whose index comes first; its boxes tell.
      if (isMp4Family(probed)) await this.checkBoxes(file);
      return probed;
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
    meta: FinishMeta,
    thumbnail: EncodedImage | undefined,
  ): Promise<string> {
    const file = path.join(this.ctx.config.dataDir, 'tmp', `assemble-${newId()}`);
    try {
      return await this.finishFrom(file, userId, q, meta, thumbnail);
    } finally {
      await rm(file, { force: true });
    }
  }

  private async finishFrom(file: string, userId: string, q: UploadQuery, meta: FinishMeta, thumbnail: EncodedImage | undefined): Promise<string> {
    const probed = await this.assembleAndProbe(userId, q, file);
    const id = await this.createVideo(userId, file, probed, meta, thumbnail);
    await this.discard(userId, q.uniqueId);
    return id;
  }

  /**
   * A video from a probed local file, as for every upload: the source stored, the row created
   * (`processing`) and the transcode queued in one transaction, under the owner's quota. A live's
   * replay comes in here too (ADR 024).
   */
  async createVideo(userId: string, file: string, probed: ProbeResult, meta: FinishMeta, thumbnail?: EncodedImage): Promise<string> {
    const sourceBytes = (await stat(file)).size;
    await this.quota.check(userId, sourceBytes);
    const id = newId();
    const sourceKey = originalKey(id);
    try {
      await this.ctx.storage.putFile(sourceKey, file);
      const thumbnailKey = thumbnail ? await storeThumbnail(this.ctx.storage, id, thumbnail) : null;
      const { commentsEnabledByDefault } = await this.ctx.settings.get();
      await this.ctx.db.transaction(async (tx) => {
        // Again under the account's lock: two uploads finishing at once cannot both pass.
        await new UploadsRepository(tx).lockOwner(userId);
        await this.quota.check(userId, sourceBytes, tx);
        await new VideosRepository(tx).insert({
          id,
          ownerId: userId,
          title: meta.title,
          description: meta.description,
          duration: probed.durationSeconds,
          width: probed.width,
          height: probed.height,
          privacy: meta.privacy.privacy,
          publishAt: meta.privacy.publishAt,
          downloadsEnabled: meta.downloadsEnabled ?? false,
          commentsEnabled: commentsEnabledByDefault,
          status: 'processing',
          sourceKey,
          thumbnailKey,
          sourceBytes,
          thumbnailBytes: thumbnail?.body.length ?? 0,
        });
        await new JobsRepository(tx).enqueue(TRANSCODE_QUEUE, { videoId: id }, { ownerId: userId });
        await schedulePublication(tx, { id, ownerId: userId }, meta.privacy.publishAt);
        const usage = new StorageUsageRepository(tx);
        await usage.recordUpload(userId, sourceBytes);
        await usage.recount(userId);
      });
    } catch (err) {
      for (const prefix of videoPrefixes(id)) await this.ctx.storage.deletePrefix(prefix);
      throw err;
    }
    return id;
  }

  private async discard(userId: string, uniqueId: string): Promise<void> {
    await this.sessions.remove(userId, uniqueId);
    await this.ctx.storage.deletePrefix(uploadPrefix(userId, uniqueId));
  }

  /** Removes sessions idle past UPLOAD_SESSION_TTL_HOURS and their chunk objects (run by the worker), a batch per turn. */
  async sweepExpired(): Promise<number> {
    const gone = await this.sessions.removeIdle(this.ctx.config.uploadSessionTtlHours, SWEEP_BATCH);
    for (const s of gone) await this.ctx.storage.deletePrefix(uploadPrefix(s.user_id, s.unique_id));
    return gone.length;
  }

  video(id: string, viewerId: string) {
    return this.videos.get(id, viewerId);
  }
}
