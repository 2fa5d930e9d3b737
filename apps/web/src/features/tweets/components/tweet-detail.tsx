import { useEffect, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { TweetCard } from '@/components/media/tweet-card.tsx';
import { ReportMenu } from '@/components/moderation/report-dialog.tsx';
import { TakedownNotice } from '@/components/moderation/takedown-notice.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { useStoredUser } from '@/lib/session.ts';
import { useTweet } from '../api/tweet-api.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** What the comments slot gets: the tweet and its comment count (for the 'N Comments' title). */
export interface TweetCommentsSlot {
  tweetId: string;
  count: number;
  /** The tweet's author: they moderate its comments. */
  owner: { _id: string; fullName: string };
}

/**
 * The tweet page (spec §2): the tweet, then the comment module ('N Comments', box, thread),
 * which the app layer plugs in (features do not import each other). A failed load goes home.
 */
export function TweetDetail({ comments }: { comments?: (slot: TweetCommentsSlot) => ReactNode }) {
  const tweetId = useParams().tweetId ?? '';
  const navigate = useNavigate();
  const q = useTweet(tweetId);
  useDocumentTitle(q.data ? `${q.data.owner.fullName} (@${q.data.owner.userName})` : null);
  const me = useStoredUser();
  const failed = q.isError;
  useEffect(() => {
    if (failed) navigate(paths.home.getHref(), { replace: true });
  }, [failed, navigate]);

  if (!q.data) return <Spinner label={t('tweet.loadingOne')} />;
  const tweet = q.data;
  return (
    <div className="mx-auto max-w-3xl px-4 py-6">
      {/* The page's title for assistive tech: the card shows the author and the text. */}
      <h1 className="sr-only">{t('tweet.by', { name: tweet.owner.fullName })}</h1>
      <TweetCard
        tweet={tweet}
        linkToDetail={false}
        menu={me && me.userId !== tweet.owner._id && <ReportMenu kind="tweet" id={tweet._id} label={t('tweet.moreActions')} />}
        notice={tweet.takedown && <TakedownNotice kind="tweet" id={tweet._id} notice={tweet.takedown} onAppealed={() => void q.refetch()} />}
      />
      <section className="mt-6">{comments?.({ tweetId: tweet._id, count: tweet.comments, owner: tweet.owner })}</section>
    </div>
  );
}
