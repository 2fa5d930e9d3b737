import type { AppContext } from '../../context.ts';
import { UploadsService } from '../uploads/uploads.service.ts';
import type { EndedSession } from './live-ingest.ts';
import { LivesService } from './lives.service.ts';

/**
 * A session's recording becomes a normal video (ADR 024): probed and stored as an upload's source,
 * then the same transcode job and ladder as every upload (poster, storyboard, mp4). It stays
 * private until its owner publishes it, and counts against the owner's quota like an upload.
 */
export async function saveReplay(ctx: AppContext, session: EndedSession): Promise<string | undefined> {
  if (!session.live.saveReplay || !session.recording) return undefined;
  const { maxLiveMinutes } = await ctx.settings.get();
  // A session is cut at maxLiveMinutes; the minute on top is the cut's own slack.
  const probed = await ctx.media.inspect(session.recording, (maxLiveMinutes + 1) * 60);
  const videoId = await new UploadsService(ctx).createVideo(session.live.ownerId, session.recording, probed, {
    title: session.live.title,
    description: session.live.description,
    privacy: { privacy: 'private', publishAt: null },
  });
  await new LivesService(ctx).setReplay(session.live.id, videoId);
  return videoId;
}
