import { Link } from 'react-router';
import toast from 'react-hot-toast';
import { Avatar } from '@/components/ui/avatar.tsx';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { ReviewActions, type ReviewAction } from '@/components/ui/review-actions.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { formatRelative } from '@/lib/format.ts';
import { useHeldComments, useReviewComment } from '../api/dashboard-api.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** Comments on the creator's videos and tweets held for review (a watched word): approve or delete. */
export function HeldComments() {
  const held = useHeldComments();
  const review = useReviewComment();
  const comments = held.data?.pages.flatMap((p) => p.items) ?? [];

  const act = (id: string, action: ReviewAction) =>
    review.mutate(
      { id, action },
      {
        onSuccess: () => toast.success(action === 'approve' ? t('comments.approved') : t('comments.deleted')),
        onError: (err) => toast.error(errorMessage(err)),
      },
    );

  return (
    <section aria-labelledby="held-comments">
      <h2 id="held-comments" className="mb-3 text-lg font-semibold">
        {t('held.heading')}
      </h2>
      {held.isPending ? (
        <Spinner label={t('held.loading')} />
      ) : held.isError ? (
        <p role="alert" className="text-sm text-danger">
          {errorMessage(held.error)}
        </p>
      ) : comments.length === 0 ? (
        <EmptyState kind="comment" title={t('held.none')} text={t('held.noneText')} />
      ) : (
        <ul className="flex flex-col divide-y divide-line rounded-lg border border-line">
          {comments.map((c) => (
            <li key={c._id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-start">
              <div className="flex min-w-0 flex-1 gap-3">
                <Avatar src={c.owner.avatar?.url} fullName={c.owner.fullName} size={32} />
                <div className="min-w-0">
                  <p className="text-xs text-fg-muted">
                    <span className="font-semibold text-fg">@{c.owner.userName}</span> · {formatRelative(c.createdAt)} ·{' '}
                    <Link
                      to={c.entityType === 'video' ? paths.video.getHref(c.entityId) : paths.tweet.getHref(c.entityId)}
                      className="font-medium text-link hover:underline"
                    >
                      {c.entityType === 'video' ? t('held.viewVideo') : t('held.viewTweet')}
                    </Link>
                  </p>
                  <p className="whitespace-pre-wrap break-words text-sm">{c.content}</p>
                </div>
              </div>
              <ReviewActions what={`comment by ${c.owner.fullName}`} busy={review.isPending} onReview={(action) => act(c._id, action)} />
            </li>
          ))}
        </ul>
      )}
      {held.hasNextPage && (
        <Button variant="ghost" className="mt-2" loading={held.isFetchingNextPage} onClick={() => void held.fetchNextPage()}>
          {t('common.showMore')}
        </Button>
      )}
    </section>
  );
}
