import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { channelQueryOptions } from '@/components/media/channel.ts';
import type { Channel, PlaylistSummary, Tweet, VideoSummary } from '@/components/media/types.ts';
import { api } from '@/lib/api-client.ts';
import { cursorPaging, fetchPage, type Page } from '@/lib/pagination.ts';
import type { SubscribedChannel, ToggleSubscriptionResult } from '@/types/api.ts';

export const useChannel = (userName: string) => useQuery(channelQueryOptions(userName));

/** POST subscriptions/toggle/{channelId}; the answer's state and count go into the channel cache. */
export function useToggleSubscription(userName: string) {
  const qc = useQueryClient();
  return async (channelId: string) => {
    const { data } = await api.post<ToggleSubscriptionResult>(`subscriptions/toggle/${channelId}`);
    qc.setQueryData<Channel>(channelQueryOptions(userName).queryKey, (c) => c && { ...c, ...data });
  };
}

/** GET users/video/{userName}: the owner gets every video, others the published ones. */
export const useChannelVideos = (userName: string) =>
  useInfiniteQuery({
    queryKey: ['channel', userName, 'videos'],
    ...cursorPaging,
    queryFn: ({ pageParam, signal }) => fetchPage<VideoSummary>(`users/video/${encodeURIComponent(userName)}`, 'videos', {}, pageParam, signal),
  });

export const useChannelPlaylists = (userName: string) =>
  useInfiniteQuery({
    queryKey: ['channel', userName, 'playlists'],
    ...cursorPaging,
    queryFn: ({ pageParam, signal }) => fetchPage<PlaylistSummary>('playlists', 'playlists', { userName }, pageParam, signal),
  });

export const useSubscribedChannels = (channelId: string) =>
  useInfiniteQuery({
    queryKey: ['channel', channelId, 'subscribed'],
    ...cursorPaging,
    queryFn: ({ pageParam, signal }) =>
      fetchPage<SubscribedChannel>(`subscriptions/channel/${channelId}`, 'subscribedChannels', {}, pageParam, signal),
  });

/**
 * Spec §5: the typed text, as typed (case-sensitive), must occur in the lower-cased full
 * name; an empty search keeps everyone.
 */
export function filterSubscribed<T extends { channel: Pick<SubscribedChannel['channel'], 'fullName'> }>(list: T[], applied: string): T[] {
  if (applied === '') return list;
  return list.filter((s) => s.channel.fullName.toLowerCase().includes(applied));
}

// ---- Tweets of a channel (the owner's composer and menus live on this tab) ----

export const tweetsKey = (channelId: string) => ['channel', channelId, 'tweets'] as const;

/**
 * The server answers each page oldest first (spec §7: the list is shown reversed) and the pages
 * from the newest back, so reversing each page shows the newest tweet on top.
 */
export const useChannelTweets = (channelId: string) =>
  useInfiniteQuery({
    queryKey: tweetsKey(channelId),
    ...cursorPaging,
    queryFn: async ({ pageParam, signal }) => {
      const page = await fetchPage<Tweet>(`tweets/user/${channelId}`, 'tweets', {}, pageParam, signal);
      return { ...page, items: [...page.items].reverse() };
    },
  });

function tweetForm(content: string, image?: File | null) {
  const form = new FormData();
  form.append('content', content);
  if (image) form.append('image', image);
  return form;
}

/** The spec promises only _id, content, image and the dates back; the rest is filled in by the caller. */
export type CreatedTweet = Pick<Tweet, '_id' | 'content' | 'createdAt' | 'updatedAt'> & Partial<Tweet>;
export const createTweet = (content: string, image: File | null) => api.post<CreatedTweet>('tweets', tweetForm(content, image));
export const updateTweet = (id: string, content: string) => api.patch<Tweet>(`tweets/${id}`, tweetForm(content));
export const deleteTweet = (id: string) => api.delete<{ deletedCount: number }>(`tweets/${id}`);

type TweetPages = InfiniteData<Page<Tweet>, string | null>;

/** Cache edits of the tweet list: new on top, edited in place, deleted removed (spec §4). */
export function useTweetCache(channelId: string) {
  const qc = useQueryClient();
  const update = (fn: (pages: Page<Tweet>[]) => Page<Tweet>[]) =>
    qc.setQueryData<TweetPages>(tweetsKey(channelId), (d) => d && { ...d, pages: fn(d.pages) });
  const mapItems = (fn: (items: Tweet[]) => Tweet[]) => update((pages) => pages.map((p) => ({ ...p, items: fn(p.items) })));
  return {
    prepend: (tweet: Tweet) => update(([first, ...rest]) => [{ ...(first ?? { hasNextPage: false, nextCursor: null }), items: [tweet, ...(first?.items ?? [])] }, ...rest]),
    replace: (tweet: Tweet) => mapItems((items) => items.map((t) => (t._id === tweet._id ? tweet : t))),
    remove: (id: string) => mapItems((items) => items.filter((t) => t._id !== id)),
  };
}
