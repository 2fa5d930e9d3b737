import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';
import { listOf } from '@/lib/pagination.ts';
import type { Playlist, PlaylistSummary } from '@/types/api.ts';

/** GET playlists/{id}: `{ playlist }` with its videos in order. */
export const playlistQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['playlists', 'detail', id],
    queryFn: async ({ signal }) => {
      const { data } = await api.get<{ playlist: Playlist } | Playlist>(`playlists/${id}`, undefined, signal);
      return 'playlist' in data ? data.playlist : data;
    },
  });

/** The viewer's own playlists, with videoStatus telling whether `videoId` is in each. */
export const myPlaylistsForVideoQueryOptions = (videoId: string) =>
  queryOptions({
    queryKey: ['playlists', 'mine', { videoId }],
    queryFn: ({ signal }) => api.get<Record<string, unknown>>('playlists', { videoId, limit: 100 }, signal).then((r) => listOf<PlaylistSummary>(r.data, 'playlists')),
    retry: false,
  });

export const addToPlaylist = (playlistId: string, videoId: string) => api.post<unknown>(`playlists/${playlistId}/${videoId}`);
export const removeFromPlaylist = (playlistId: string, videoId: string) => api.delete<unknown>(`playlists/${playlistId}/${videoId}`);
export const createPlaylist = (name: string, videoId: string) =>
  api.post<{ playlist: PlaylistSummary } | PlaylistSummary>('playlists', { name, videoId }).then((r) => ('playlist' in r.data ? r.data.playlist : r.data));
