import type { Video, VideoCard } from '@glimpse/contract';
import { urlRef, type MediaUrls } from '../media-access/media-links.ts';
import { toOwner } from '../users/users.presenter.ts';
import type { VideoCardRow } from './video-cards.repository.ts';
import type { VideoRow } from './videos.repository.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

/** A video as lists embed it (playlists, liked videos, subscriptions feed). */
export function toVideoCard(media: MediaUrls, { video: row, owner, publicToken }: VideoCardRow): VideoCard {
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    thumbnail: media.fileRef(row.id, publicToken, row.thumbnailKey),
    duration: row.duration,
    views: row.views,
    isPublished: row.isPublished,
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
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    isPublished: r.is_published,
    status: r.status,
    progress: Number(r.progress),
    failureReason: r.failure_reason,
    likes: r.likes,
    dislikes: r.dislikes,
    likeStatus: Math.sign(Number(r.like_status)) as 1 | -1 | 0,
    isSubscribed: r.is_subscribed,
    subscribers: Number(r.owner_subscribers),
    noOfComments: r.comments_count,
    owner: toOwner(media.storage, {
      id: r.owner_id,
      userName: r.owner_user_name,
      fullName: r.owner_full_name,
      avatarKey: r.owner_avatar_key,
    }),
  };
}
