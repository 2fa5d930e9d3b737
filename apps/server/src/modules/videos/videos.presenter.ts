import type { VideoCard } from '@glimpse/contract';
import type { Storage } from '../../storage/storage.ts';
import { imageRef, toOwner } from '../users/users.presenter.ts';
import type { OwnerRow } from '../users/users.repository.ts';
import type { VideoRow } from './video-cards.repository.ts';

/** A video as lists embed it (playlists, liked videos, subscriptions feed). */
export function toVideoCard(storage: Storage, row: VideoRow, owner: OwnerRow): VideoCard {
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
