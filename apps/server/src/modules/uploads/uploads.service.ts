import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
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
import type { ProbeAhead } from '../../media/media-service.ts';
import { AccountRefused } from '../../identity/account-state.ts';
import type { TokenSubject } from '../../identity/access-token.ts';
import { ApiError, badRequest, conflict, notFound, tooLarge, tooMany } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { EncodedImage } from '../../lib/images.ts';
import type { MultipartResult } from '../../lib/multipart.ts';
import { TRANSCODE_QUEUE, type TranscodePayload } from '../transcode/queue.ts';
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
      const gone = await sessions.removeUnclaimed(userId, uniqueId);
      if (!gone && (await sessions.find(userId, uniqueId))) throw conflict(ALREADY_FINISHING);
      // Remembered even when nothing was held yet: the first chunk may still be on its way.
      await sessions.markCancelled(userId, uniqueId);
      return gone;
    });
    if (!removed) throw notFound('Upload not found');
    await this.ctx.storage.deletePrefix(uploadPrefix(userId, uniqueId));
  }

  /**
   * Stores one chunk, streamed by `read` straight into the storage under a fresh key; on the
   * flagged last chunk, assembles, probes and creates the video. A request that fails before its
   * chunk is recorded leaves no object behind. The uploader's account is checked by the chunk's
   * admission (AccountRefused), so the route need not read it first (ADR 025).
   */
  async receive(
    uploader: Pick<TokenSubject, 'id' | 'sessionId'>,
    q: UploadQuery,
    read: (sink: (body: Readable) => Promise<void>) => Promise<MultipartResult>,
  ): Promise<{ status: UploadStatus } | { videoId: string }> {
    const userId = uploader.id;
    await this.ctx.media.assertUsable();
    const limitBytes = this.ctx.config.limits.videoMb * MB;
    if (q.chunkNumber > q.totalChunks) throw badRequest('chunkNumber must be from 0 to totalChunks-1, or from 1 to totalChunks');
    // The spec's client sends full 3 MB chunks: more chunks than the limit allows is over the limit.
    if (q.totalChunks > Math.ceil(limitBytes / CHUNK_BYTES)) throw tooLarge(this.ctx.config.limits.videoMb);
    const key = uploadChunkKey(userId, q.uniqueId, q.chunkNumber, newId());
    // The highest chunk number (of either numbering) is the last chunk the spec's client and ours
    // send: it takes the probe kept ready while the chunks arrived, or starts one now, while the
    // chunk arrives (ADR 025); ended unused otherwise.
    let probe = q.chunkNumber >= q.totalChunks - 1 ? this.ctx.media.probeAhead() : undefined;
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

      const admitted = await this.admit(uploader, q, key, chunk.size);
      recorded = true;
      // A retried chunk's earlier object is no longer named by any row.
      if (admitted.replacedKey) await this.ctx.storage.delete(admitted.replacedKey);
      const status: UploadStatus = { uniqueId: q.uniqueId, totalChunks: q.totalChunks, receivedChunks: admitted.received, receivedBytes: admitted.receivedBytes };
      if (!isLast) {
        // An upload under way: its last chunk will want a probe (started once admitted, so a refused chunk starts none).
        this.ctx.media.keepProbeReady();
        return { status };
      }
      probe ??= this.ctx.media.probeAhead();
      return { videoId: await this.finalize(userId, q, status, meta!, thumbnail, probe) };
    } finally {
      probe?.cancel();
      await form?.cleanup();
      if (written && !recorded) await this.ctx.storage.delete(key);
    }
  }

  /** Records the chunk within its bounds (ADR 005, one statement: ADR 018), or throws why it cannot be. */
  private async admit({ id: userId, sessionId }: Pick<TokenSubject, 'id' | 'sessionId'>, q: UploadQuery, key: string, size: number) {
    const { limits, uploadSessionTtlHours } = this.ctx.config;
    const wait = `Finish one, or wait until it expires ${uploadSessionTtlHours} hours after its last chunk`;
    const record = { userId, sessionId: sessionId ?? null, uniqueId: q.uniqueId, totalChunks: q.totalChunks, chunkNumber: q.chunkNumber, size, objectKey: key };
    const bounds = { sessionBytes: limits.videoMb * MB, heldBytes: limits.uploadsHeldMb * MB, openSessions: limits.openUploads };
    const admitted = await this.sessions.admit(record, bounds);
    switch (admitted.outcome) {
      case 'ok':
        break;
      case 'no_account':
        throw new AccountRefused('invalid');
      case 'suspended':
      case 'revoked':
        throw new AccountRefused(admitted.outcome);
      case 'finalizing':
        throw conflict(ALREADY_FINISHING);
      case 'cancelled':
        throw conflict('This upload was cancelled: start it again under a new uniqueId');
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
  private async finalize(userId: string, q: UploadQuery, status: UploadStatus, meta: FinishMeta, thumbnail: EncodedImage | undefined, probe: ProbeAhead): Promise<string> {
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
      return await this.finish(userId, q, meta, thumbnail, probe);
    } catch (err) {
      // Over a quota, the upload cannot become a video: its chunks go. Otherwise it may be retried.
      if (err instanceof QuotaExceeded) await this.discard(userId, q.uniqueId);
      else await this.sessions.releaseFinalize(userId, q.uniqueId);
      throw err;
    }
  }

  /**
   * Joins the session's chunks in file order into the original's key (ADR 025: the local driver
   * links them, copying nothing, and the checks read them there; S3 uploads the object while it
   * writes the checks' copy), then probes it. A file that cannot become a video is a 400 (saying why) after
   * removing the whole session; the caller removes the original whatever stops the upload.
   */
  private async joinAndProbe(userId: string, q: UploadQuery, sourceKey: string, probe: ProbeAhead): Promise<{ probed: ProbeResult; sourceBytes: number }> {
    const chunks = await this.sessions.chunks(userId, q.uniqueId);
    const scratch = path.join(this.ctx.config.dataDir, 'tmp', `assemble-${newId()}`);
    await mkdir(path.dirname(scratch), { recursive: true });
    const { maxVideoMinutes } = await this.ctx.settings.get();
    const joining = this.ctx.storage.join(
      sourceKey,
      chunks.map((c) => c.object_key),
      scratch,
    );
    // The probe's child process (started with the request) reads the file once it is whole; a failed join stops it.
    const probing = probe.inspect(
      joining.then((j) => j.source),
      maxVideoMinutes * 60,
    );
    probing.catch(() => {});
    const joined = await joining;
    try {
      // The admin's limit (instance settings; MAX_VIDEO_MINUTES until they change it).
      const probed = await probing;
      // The demuxer accepts a cut-off mp4 whose index comes first; its boxes tell.
      if (isMp4Family(probed)) {
        const boxes = await checkTopLevelBoxes((offset, length) => joined.read(offset, length), joined.bytes);
        if (!boxes.ok) throw new ProbeError(NOT_A_VIDEO);
      }
      return { probed, sourceBytes: joined.bytes };
    } catch (err) {
      if (err instanceof ProbeError) {
        await this.discard(userId, q.uniqueId);
        throw badRequest(err.message);
      }
      throw err;
    } finally {
      await joined.release();
    }
  }

  private async finish(userId: string, q: UploadQuery, meta: FinishMeta, thumbnail: EncodedImage | undefined, probe: ProbeAhead): Promise<string> {
    const id = newId();
    const sourceKey = originalKey(id);
    // The chunks are joined straight into the original's key (ADR 025): no second copy.
    const stored = this.joinAndProbe(userId, q, sourceKey, probe);
    await this.createVideoFrom(id, userId, sourceKey, stored, meta, thumbnail);
    await this.discard(userId, q.uniqueId);
    return id;
  }

  /**
   * A video from a probed local file, as for every upload: the source stored, the row created
   * (`processing`) and the transcode queued in one transaction, under the owner's quota. A live's
   * replay comes in here (ADR 024).
   */
  async createVideo(userId: string, file: string, probed: ProbeResult, meta: FinishMeta, thumbnail?: EncodedImage): Promise<string> {
    const sourceBytes = (await stat(file)).size;
    await this.quota.check(userId, sourceBytes);
    const id = newId();
    const sourceKey = originalKey(id);
    const stored = this.ctx.storage.putFile(sourceKey, file).then(() => ({ probed, sourceBytes }));
    await this.createVideoFrom(id, userId, sourceKey, stored, meta, thumbnail);
    return id;
  }

  /** The row, the transcode job and the usage once the source is stored; every stored file goes if anything fails. */
  private async createVideoFrom(
    id: string,
    userId: string,
    sourceKey: string,
    stored: Promise<{ probed: ProbeResult; sourceBytes: number }>,
    meta: FinishMeta,
    thumbnail: EncodedImage | undefined,
  ): Promise<void> {
    try {
      const { probed, sourceBytes } = await stored;
      await this.quota.check(userId, sourceBytes);
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
        await new JobsRepository(tx).enqueue(TRANSCODE_QUEUE, { videoId: id, probe: probed } satisfies TranscodePayload, { ownerId: userId });
        await schedulePublication(tx, { id, ownerId: userId }, meta.privacy.publishAt);
        const usage = new StorageUsageRepository(tx);
        await usage.recordUpload(userId, sourceBytes);
        await usage.recount(userId);
      });
    } catch (err) {
      // The stored original (and a stored thumbnail) go with whatever stopped the upload.
      await stored.catch(() => undefined);
      for (const prefix of videoPrefixes(id)) await this.ctx.storage.deletePrefix(prefix);
      throw err;
    }
  }

  private async discard(userId: string, uniqueId: string): Promise<void> {
    await this.sessions.remove(userId, uniqueId);
    await this.ctx.storage.deletePrefix(uploadPrefix(userId, uniqueId));
  }

  /** Removes sessions idle past UPLOAD_SESSION_TTL_HOURS and their chunk objects (run by the worker), a batch per turn. */
  async sweepExpired(): Promise<number> {
    await this.sessions.forgetCancels(this.ctx.config.uploadSessionTtlHours);
    const gone = await this.sessions.removeIdle(this.ctx.config.uploadSessionTtlHours, SWEEP_BATCH);
    for (const s of gone) await this.ctx.storage.deletePrefix(uploadPrefix(s.user_id, s.unique_id));
    return gone.length;
  }

  video(id: string, viewerId: string) {
    return this.videos.get(id, viewerId);
  }
}
