import type { PlaylistSummary } from '@glimpse/contract';
import type { MediaUrls } from '../media-links/media-links.ts';
import { toOwner } from '../users/users.presenter.ts';
import type { OwnerRow } from '../users/users.repository.ts';
import type { PlaylistRow } from './playlists.repository.ts';

export interface PlaylistSummaryRow {
  playlist: PlaylistRow;
  owner: OwnerRow;
  noOfVideos: number;
  firstVideoId: string | null;
  thumbnailKey: string | null;
  /** The first video's public media token (null unless it is public). */
  thumbnailPublicToken: string | null;
  videoStatus: boolean;
}

export function toPlaylistSummary(media: MediaUrls, row: PlaylistSummaryRow): PlaylistSummary {
  const p = row.playlist;
  return {
    _id: p.id,
    name: p.name,
    description: p.description,
    noOfVideos: row.noOfVideos,
    videoId: row.firstVideoId,
    thumbnail: media.fileRef(row.firstVideoId, row.thumbnailPublicToken, row.thumbnailKey),
    owner: toOwner(media.storage, row.owner),
    videoStatus: row.videoStatus,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}
