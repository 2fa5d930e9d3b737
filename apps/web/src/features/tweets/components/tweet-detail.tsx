import { useEffect, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { TweetCard } from '@/components/media/tweet-card.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { useTweet } from '../api/tweet-api.ts';

/** What the comments slot gets: the tweet and its comment count (for the 'N Comments' title). */
export interface TweetCommentsSlot {
  tweetId: string;
  count: number;
}

/**
 * The tweet page (spec §2): the tweet, then the comment module ('N Comments', box, thread),
 * which the app layer plugs in (features do not import each other). A failed load goes home.
 */
export function TweetDetail({ comments }: { comments?: (slot: TweetCommentsSlot) => ReactNode }) {
  const tweetId = useParams().tweetId ?? '';
  const navigate = useNavigate();
  const q = useTweet(tweetId);
  const failed = q.isError;
  useEffect(() => {
    if (failed) navigate(paths.home.getHref(), { replace: true });
  }, [failed, navigate]);

  if (!q.data) return <Spinner label="Loading tweet" />;
  const tweet = q.data;
  return (
    <div className="mx-auto max-w-3xl px-4 py-6">
      <TweetCard tweet={tweet} linkToDetail={false} />
      <section className="mt-6">{comments?.({ tweetId: tweet._id, count: tweet.comments })}</section>
    </div>
  );
}
