import { z } from 'zod';
import { id, imageRef, pageQuery } from './common.ts';
import { oneLine } from './text.ts';
import { owner } from './users.ts';
import { videoCard } from './video-card.ts';

export const PLAYLIST_NAME_MAX = 100;
export const PLAYLIST_DESCRIPTION_MAX = 1000;

export const playlistMessages = {
  viewLoginRequired: 'Please login to view playlists',
  createLoginRequired: 'Please login to create a playlist',
  loginRequired: 'Please login to manage your playlists',
  nameRequired: 'Playlist name is required',
  created: 'Playlist created successfully',
  updated: 'Playlist updated successfully',
  deleted: 'Playlist deleted successfully',
  videoAdded: 'Video added to playlist successfully',
  videoRemoved: 'Video removed from playlist successfully',
  notFound: 'Playlist not found',
  duplicate: 'Video is already in this playlist',
  absent: 'Video is not in this playlist',
} as const;

const name = oneLine({ message: playlistMessages.nameRequired })
  .min(1, playlistMessages.nameRequired)
  .max(PLAYLIST_NAME_MAX, `Playlist name must be at most ${PLAYLIST_NAME_MAX} characters`);
const description = z
  .string()
  .trim()
  .max(PLAYLIST_DESCRIPTION_MAX, `Description must be at most ${PLAYLIST_DESCRIPTION_MAX} characters`);

export const createPlaylistBody = z.object({ name, description: description.optional(), videoId: id.optional() });
export type CreatePlaylistBody = z.infer<typeof createPlaylistBody>;
export const updatePlaylistBody = z.object({ name, description: description.optional() });
export type UpdatePlaylistBody = z.infer<typeof updatePlaylistBody>;

/** Without userName: the viewer's own playlists (login required). videoId fills `videoStatus`. */
export const playlistsQuery = pageQuery.extend({
  userName: z
    .string()
    .trim()
    .max(64)
    .transform((u) => u.replace(/^@/, '').toLowerCase())
    .optional(),
  videoId: id.optional(),
});
export const playlistParams = z.object({ playlistId: id });
export const playlistVideoParams = z.object({ playlistId: id, videoId: id });

/** A playlist as lists show it; counts and thumbnail consider only videos the viewer may see. */
export const playlistSummary = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  noOfVideos: z.number().int(),
  /** First video the viewer may see (play-all link), or null. */
  videoId: z.string().nullable(),
  thumbnail: imageRef,
  owner,
  /** Whether the query's videoId is in the playlist (false without one). */
  videoStatus: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PlaylistSummary = z.infer<typeof playlistSummary>;

/** GET playlists/{id} and every write answer `data.playlist`: the summary plus its videos in order. */
export const playlist = playlistSummary.extend({ videos: z.array(videoCard) });
export type Playlist = z.infer<typeof playlist>;
