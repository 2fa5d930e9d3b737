import type { Video, VideoCard } from '@glimpse/contract';
import { urlRef, type MediaUrls } from '../media-links/media-links.ts';
import { toCaptions } from './captions.presenter.ts';
import { toTakedown } from '../../policy/content-state.ts';
import { toOwner } from '../users/users.presenter.ts';
import type { VideoCardRow } from './video-cards.repository.ts';
import type { VideoRow } from './videos.repository.ts';
import { toIso } from '../../lib/time.ts';

/** The planned ladder, each rung with whether it plays yet (ADR 019). */
const toRenditions = (planned: string[], ready: string[]) => planned.map((name) => ({ name, ready: ready.includes(name) }));

/** A video as lists embed it (playlists, liked videos, subscriptions feed). */
export function toVideoCard(media: MediaUrls, { video: row, owner, publicToken }: VideoCardRow): VideoCard {
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    thumbnail: media.fileRef(row.id, publicToken, row.thumbnailKey),
    duration: row.duration,
    views: row.views,
    isPublished: row.privacy === 'public',
    owner: toOwner(media.storage, owner),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The spec's video object plus the media URLs and processing state. */
export function toVideo(media: MediaUrls, r: VideoRow): Video {
  const url = media.forVideo(r.id, r.public_token);
  const thumbnail = urlRef(url(r.thumbnail_key));
  return {
    _id: r.id,
    title: r.title,
    description: r.description,
    thumbnail,
    poster: thumbnail,
    videoFile: { publicId: r.id, url: url(r.hls_key) },
    storyboard: urlRef(url(r.storyboard_key)),
    duration: Number(r.duration),
    width: r.width,
    height: r.height,
    views: Number(r.views),
    createdAt: toIso(r.created_at),
    updatedAt: toIso(r.updated_at),
    isPublished: r.privacy === 'public',
    privacy: r.privacy,
    publishAt: r.publish_at ? toIso(r.publish_at) : null,
    downloadsEnabled: r.downloads_enabled,
    status: r.status,
    progress: Number(r.progress),
    failureReason: r.failure_reason,
    renditions: toRenditions(r.renditions, r.renditions_ready),
    likes: r.likes,
    dislikes: r.dislikes,
    likeStatus: Math.sign(Number(r.like_status)) as 1 | -1 | 0,
    isSubscribed: r.is_subscribed,
    subscribers: Number(r.owner_subscribers),
    noOfComments: r.comments_count,
    commentsEnabled: r.comments_enabled,
    owner: toOwner(media.storage, {
      id: r.owner_id,
      userName: r.owner_user_name,
      fullName: r.owner_full_name,
      avatarKey: r.owner_avatar_key,
    }),
    takedown: toTakedown({
      takenDownAt: r.taken_down_at,
      takedownReason: r.takedown_reason,
      appealText: r.appeal_text,
      appealedAt: r.appealed_at,
      appealClosedAt: r.appeal_closed_at,
    }),
    captions: toCaptions(media, r.id, r.public_token, typeof r.captions === 'string' ? JSON.parse(r.captions) : (r.captions ?? [])),
  };
}
