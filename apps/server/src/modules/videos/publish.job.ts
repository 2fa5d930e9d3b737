import type { AppContext } from '../../context.ts';
import type { JobHandler } from '../../jobs/worker.ts';
import { announceVideo, videoChanged } from './announce.ts';
import type { PublishPayload } from './privacy.ts';
import { VideosRepository } from './videos.repository.ts';

/**
 * Makes a scheduled video public when its time comes (the job's run_at). Exactly once, also across
 * restarts and several workers: the update applies only while the row still waits for this very
 * time, so a second run, or a job whose schedule was changed or cancelled, changes nothing.
 */
export function publishHandler(ctx: AppContext): JobHandler<PublishPayload> {
  return {
    run: ({ videoId, publishAt }) =>
      ctx.db.transaction(async (tx) => {
        const videos = new VideosRepository(tx);
        const owner = await videos.publishScheduled(videoId, new Date(publishAt));
        // Federation hears of a first publication through videoPublished, of a later one through videoChanged.
        if (owner && !(await announceVideo(tx, { id: videoId, ownerId: owner }))) await videoChanged(tx, { id: videoId, ownerId: owner });
        return { published: owner !== undefined };
      }),
    // The video stays private with its publish_at: its owner sees the time passed and publishes by hand.
    onFailed: async () => {},
  };
}
