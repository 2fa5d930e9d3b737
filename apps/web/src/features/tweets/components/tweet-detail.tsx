import { useEffect, useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { TweetCard } from '@/components/media/tweet-card.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { plural } from '@/lib/format.ts';
import { useTweet } from '../api/tweet-api.ts';

/** What the comments slot gets: the tweet id and a way to keep the 'N Comments' title current. */
export interface TweetCommentsSlot {
  tweetId: string;
  onCountChange: (count: number) => void;
}

/**
 * The tweet page (spec §2): the tweet, an 'N Comments' title, then the comment module,
 * which the app layer plugs in (features do not import each other). A failed load goes home.
 */
export function TweetDetail({ comments }: { comments?: (slot: TweetCommentsSlot) => ReactNode }) {
  const tweetId = useParams().tweetId ?? '';
  const navigate = useNavigate();
  const q = useTweet(tweetId);
  const [count, setCount] = useState<number | null>(null);
  const failed = q.isError;
  useEffect(() => {
    if (failed) navigate(paths.home.getHref(), { replace: true });
  }, [failed, navigate]);

  if (!q.data) return <Spinner label="Loading tweet" />;
  const tweet = q.data;
  const shown = count ?? tweet.comments;
  return (
    <div className="mx-auto max-w-3xl px-4 py-6">
      <TweetCard tweet={tweet} linkToDetail={false} />
      <section aria-labelledby="tweet-comments" className="mt-6">
        <h2 id="tweet-comments" className="mb-4 text-lg font-semibold">
          {plural(shown, 'Comment')}
        </h2>
        {comments?.({ tweetId: tweet._id, onCountChange: setCount })}
      </section>
    </div>
  );
}
