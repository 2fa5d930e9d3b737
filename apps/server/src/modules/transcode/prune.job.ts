import { buffer } from 'node:stream/consumers';
import { isFastRenditionName, TRANSCODE_OUTPUTS } from '@glimpse/media';
import type { AppContext } from '../../context.ts';
import { PermanentJobError, type JobHandler } from '../../jobs/worker.ts';
import { videoMediaPrefix } from '../../storage/media-keys.ts';
import { VideosRepository } from '../videos/videos.repository.ts';
import { StorageUsageRepository } from '../quota/storage-usage.repository.ts';

/** Removes a first pass's fast lowest rung once the second pass has made it again (ADR 025, fifth round). */
export const PRUNE_QUEUE = 'transcode-prune';

export interface PrunePayload {
  videoId: string;
  /** The fast rung's folder under the video's hls/ (fastRenditionName). */
  folder: string;
}

/**
 * A player that loaded the fast rung's playlist before the second pass ended reads its segments
 * to the end (a VOD playlist is not loaded again): they stay for the video's length and this long.
 */
const KEPT_HOURS = 6;

export const pruneAt = (durationSeconds: number, now = Date.now()): Date => new Date(now + (durationSeconds + KEPT_HOURS * 3600) * 1000);

export function pruneHandler(ctx: AppContext): JobHandler<PrunePayload> {
  return {
    async run({ videoId, folder }) {
      // Our own payload, but the name becomes a storage key: a fast rung's folder only.
      if (!isFastRenditionName(folder)) throw new PermanentJobError(`Not a fast rendition folder: ${folder}`);
      const prefix = videoMediaPrefix(videoId);
      const masterKey = `${prefix}/hls/${TRANSCODE_OUTPUTS.master}`;
      // The video was deleted (its files with it), or a later transcode plays from the folder again.
      if (!(await ctx.storage.exists(masterKey))) return { skipped: true };
      if ((await buffer(await ctx.storage.getStream(masterKey))).toString('utf8').includes(`${folder}/index.m3u8`)) return { skipped: true };
      const dir = `${prefix}/hls/${folder}`;
      const bytes = await ctx.storage.bytesUnder(dir);
      await ctx.storage.deletePrefix(dir);
      await ctx.db.transaction(async (tx) => {
        const ownerId = await new VideosRepository(tx).releaseMediaBytes(videoId, bytes);
        if (ownerId) await new StorageUsageRepository(tx).recount(ownerId);
      });
      return { videoId, folder, bytes };
    },
    // Nothing to mark: the files stay counted until a later prune or the video's deletion.
    async onFailed() {},
  };
}
