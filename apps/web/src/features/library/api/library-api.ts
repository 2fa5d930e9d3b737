import { useInfiniteQuery } from '@tanstack/react-query';
import type { PlaylistSummary } from '@/components/media/types.ts';
import { api } from '@/lib/api-client.ts';
import { cursorPaging, fetchPage } from '@/lib/pagination.ts';

/** One personal list: its cache key, path and the answer's list field. */
export interface LibrarySource {
  key: string;
  path: string;
  listKey: string;
}

export const sources = {
  subscriptions: { key: 'subscriptions', path: 'subscriptions', listKey: 'subscriptions' },
  history: { key: 'history', path: 'users/watch-history', listKey: 'watchHistory' },
  liked: { key: 'liked-videos', path: 'likes/video', listKey: 'likedVideos' },
} as const satisfies Record<string, LibrarySource>;

export const useLibraryList = <T>(source: LibrarySource) =>
  useInfiniteQuery({
    queryKey: ['library', source.key],
    ...cursorPaging,
    queryFn: ({ pageParam, signal }) => fetchPage<T>(source.path, source.listKey, {}, pageParam, signal),
  });

export const myPlaylistsKey = (userName: string) => ['library', 'playlists', userName] as const;

export const useMyPlaylists = (userName: string) =>
  useInfiniteQuery({
    queryKey: myPlaylistsKey(userName),
    ...cursorPaging,
    queryFn: ({ pageParam, signal }) => fetchPage<PlaylistSummary>('playlists', 'playlists', { userName }, pageParam, signal),
  });

export const renamePlaylist = (id: string, name: string) => api.patch<unknown>(`playlists/${id}`, { name });
export const deletePlaylist = (id: string) => api.delete<unknown>(`playlists/${id}`);
