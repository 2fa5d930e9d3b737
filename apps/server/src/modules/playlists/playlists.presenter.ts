import type { PlaylistSummary } from '@glimpse/contract';
import type { Storage } from '../../storage/storage.ts';
import { imageRef, toOwner } from '../users/users.presenter.ts';
import type { OwnerRow } from '../users/users.repository.ts';
import type { PlaylistRow } from './playlists.repository.ts';

export interface PlaylistSummaryRow {
  playlist: PlaylistRow;
  owner: OwnerRow;
  noOfVideos: number;
  firstVideoId: string | null;
  thumbnailKey: string | null;
  videoStatus: boolean;
}

export function toPlaylistSummary(storage: Storage, row: PlaylistSummaryRow): PlaylistSummary {
  const p = row.playlist;
  return {
    _id: p.id,
    name: p.name,
    description: p.description,
    noOfVideos: row.noOfVideos,
    videoId: row.firstVideoId,
    thumbnail: imageRef(storage, row.thumbnailKey),
    owner: toOwner(storage, row.owner),
    videoStatus: row.videoStatus,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}
