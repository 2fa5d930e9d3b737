import type { Video, VideoCard } from '@glimpse/contract';
import type { Storage } from '../../storage/storage.ts';
import { imageRef, toOwner } from '../users/users.presenter.ts';
import type { OwnerRow } from '../users/users.repository.ts';
import type { VideoRow as CardRow } from './video-cards.repository.ts';
import type { VideoRow } from './videos.repository.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

/** A video as lists embed it (playlists, liked videos, subscriptions feed). */
export function toVideoCard(storage: Storage, row: CardRow, owner: OwnerRow): VideoCard {
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    thumbnail: imageRef(storage, row.thumbnailKey),
    duration: row.duration,
    views: row.views,
    isPublished: row.isPublished,
    owner: toOwner(storage, owner),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The spec's video object plus the media URLs and processing state. */
export function toVideo(storage: Storage, r: VideoRow): Video {
  const thumbnail = imageRef(storage, r.thumbnail_key);
  return {
    _id: r.id,
    title: r.title,
    description: r.description,
    thumbnail,
    poster: thumbnail,
    videoFile: { publicId: r.id, url: r.hls_key ? storage.url(r.hls_key) : null },
    storyboard: imageRef(storage, r.storyboard_key),
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
    owner: toOwner(storage, {
      id: r.owner_id,
      userName: r.owner_user_name,
      fullName: r.owner_full_name,
      avatarKey: r.owner_avatar_key,
    }),
  };
}
