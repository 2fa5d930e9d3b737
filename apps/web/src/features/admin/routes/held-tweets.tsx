import toast from 'react-hot-toast';
import { TweetCard } from '@/components/media/tweet-card.tsx';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { ReviewActions, type ReviewAction } from '@/components/ui/review-actions.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { useHeldTweets, useReviewTweet } from '../api/creator-moderation-api.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** Tweets held for review (a watched word): moderators approve (publish) or delete them. */
export default function HeldTweetsRoute() {
  useDocumentTitle(t('admin.tabHeldTweets'));
  const held = useHeldTweets();
  const review = useReviewTweet();
  const tweets = held.data?.pages.flatMap((p) => p.items) ?? [];

  const act = (id: string, action: ReviewAction) =>
    review.mutate(
      { id, action },
      {
        onSuccess: () => toast.success(action === 'approve' ? t('admin.tweetApproved') : t('admin.heldDeleted')),
        onError: (err) => toast.error(errorMessage(err)),
      },
    );

  if (held.isPending) return <Spinner label={t('admin.loadingHeld')} />;
  if (held.isError)
    return (
      <p role="alert" className="text-sm text-danger">
        {errorMessage(held.error)}
      </p>
    );
  if (tweets.length === 0) return <EmptyState kind="tweet" title={t('admin.noHeld')} text={t('admin.noHeldText')} />;
  return (
    <section aria-label={t('admin.tabHeldTweets')}>
      <ul>
        {tweets.map((tweet) => (
          <li key={tweet._id}>
            <TweetCard
              tweet={tweet}
              menu={<ReviewActions what={t('admin.tweetBy', { name: tweet.owner.fullName })} busy={review.isPending} onReview={(action) => act(tweet._id, action)} />}
            />
          </li>
        ))}
      </ul>
      {held.hasNextPage && (
        <Button variant="ghost" loading={held.isFetchingNextPage} onClick={() => void held.fetchNextPage()}>
          {t('common.showMore')}
        </Button>
      )}
    </section>
  );
}
