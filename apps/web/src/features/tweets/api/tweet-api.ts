import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Tweet } from '@/components/media/types.ts';
import { ApiError, api } from '@/lib/api-client.ts';

/** GET tweets/{tweetId}: the answer is a list; its first entry is the tweet (spec §7). */
export const tweetQueryOptions = (tweetId: string) =>
  queryOptions({
    queryKey: ['tweet', tweetId],
    queryFn: async ({ signal }) => {
      const { data } = await api.get<{ tweets: Tweet[] }>(`tweets/${encodeURIComponent(tweetId)}`, undefined, signal);
      const tweet = data.tweets?.[0];
      if (!tweet) throw new ApiError(404, 'Tweet not found');
      return tweet;
    },
  });

export const useTweet = (tweetId: string) => useQuery(tweetQueryOptions(tweetId));
