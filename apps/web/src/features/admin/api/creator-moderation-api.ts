import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Tweet, WatchedWord } from '@glimpse/contract';
import { api } from '@/lib/api-client.ts';
import { cursorPaging, fetchPage } from '@/lib/pagination.ts';

const watchedWordsKey = ['admin', 'watched-words'] as const;

/** The whole watched-words list (bounded on the server), admins only. */
export const useWatchedWords = () =>
  useQuery({ queryKey: watchedWordsKey, queryFn: async () => (await api.get<{ words: WatchedWord[] }>('admin/watched-words')).data.words });

export function useWatchedWordChange() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (change: { add: string } | { remove: string }) =>
      'add' in change ? api.post<WatchedWord>('admin/watched-words', { word: change.add }) : api.delete<unknown>(`admin/watched-words/${change.remove}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: watchedWordsKey }),
  });
}

const heldTweetsKey = ['admin', 'held-tweets'] as const;

/** Tweets held for review (a watched word), moderators and admins. */
export const useHeldTweets = () =>
  useInfiniteQuery({
    queryKey: heldTweetsKey,
    ...cursorPaging,
    queryFn: ({ pageParam, signal }) => fetchPage<Tweet>('moderation/held-tweets', 'tweets', {}, pageParam, signal),
  });

export function useReviewTweet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'approve' | 'delete' }) =>
      action === 'approve' ? api.post<Tweet>(`moderation/held-tweets/${id}/approve`) : api.delete<unknown>(`moderation/held-tweets/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: heldTweetsKey }),
  });
}
