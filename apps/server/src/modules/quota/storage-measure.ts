import type { AppContext } from '../../context.ts';
import { videoMediaPrefix } from '../../storage/media-keys.ts';
import { StorageUsageRepository } from './storage-usage.repository.ts';

/** Videos measured per housekeeping run: an old instance's backlog is worked off without a long pause. */
export const MEASURE_BATCH = 50;

/**
 * Measures in storage the files of videos stored before migration 0740 (SQL could not know their
 * sizes) and counts them for their owners, a batch per call (the worker's housekeeping). The
 * original and the thumbnail are measured at their keys; the media folder holds the thumbnail
 * (and, before ADR 011 moved it, the original), which are not counted twice.
 */
export async function measureOldVideos(ctx: AppContext, limit = MEASURE_BATCH): Promise<number> {
  const videos = await new StorageUsageRepository(ctx.db).unmeasured(limit);
  for (const v of videos) {
    const prefix = `${videoMediaPrefix(v.id)}/`;
    const source = v.source_key ? await ctx.storage.bytesUnder(v.source_key) : 0;
    const thumbnail = v.thumbnail_key ? await ctx.storage.bytesUnder(v.thumbnail_key) : 0;
    const inside = (key: string | null, bytes: number) => (key?.startsWith(prefix) ? bytes : 0);
    const media = Math.max(0, (await ctx.storage.bytesUnder(prefix)) - inside(v.thumbnail_key, thumbnail) - inside(v.source_key, source));
    await ctx.db.transaction(async (tx) => {
      const usage = new StorageUsageRepository(tx);
      if (await usage.setMeasured(v.id, { source, media, thumbnail })) await usage.recount(v.owner_id);
    });
  }
  return videos.length;
}

/** Measures live thumbnails stored before migration 1080 and counts them for their owners, a batch per call. */
export async function measureOldLiveThumbnails(ctx: AppContext, limit = MEASURE_BATCH): Promise<number> {
  const lives = await new StorageUsageRepository(ctx.db).unmeasuredLiveThumbnails(limit);
  for (const l of lives) {
    const bytes = await ctx.storage.bytesUnder(l.thumbnail_key);
    await ctx.db.transaction(async (tx) => {
      const usage = new StorageUsageRepository(tx);
      if (await usage.setLiveThumbnailMeasured(l.id, l.thumbnail_key, bytes)) await usage.recount(l.owner_id);
    });
  }
  return lives.length;
}
