import { MessageSquare } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '@/components/ui/avatar.tsx';
import { ExpandableText } from '@/components/ui/expandable-text.tsx';
import { HeldBadge } from '@/components/ui/held-badge.tsx';
import { LikeDislike } from '@/components/ui/like-dislike.tsx';
import { paths } from '@/config/paths.ts';
import { formatCount, formatRelative, plural } from '@/lib/format.ts';
import type { Tweet } from './types.ts';
import { t } from '@/lib/i18n/i18n.ts';

/**
 * A tweet (spec §2, §4): author linking to their channel, text cut at 100 characters with
 * Read more / Show less, image, like/dislike and a link to the tweet page. `menu` is the
 * owner's Edit/Delete; `body` replaces the text while editing.
 */
export function TweetCard({
  tweet,
  menu,
  body,
  notice,
  linkToDetail = true,
}: {
  tweet: Tweet;
  menu?: ReactNode;
  body?: ReactNode;
  /** The owner's moderation notice of a taken-down tweet. */
  notice?: ReactNode;
  linkToDetail?: boolean;
}) {
  const channelHref = paths.channel.videos.getHref(tweet.owner.userName);
  const edited = tweet.updatedAt !== tweet.createdAt;
  return (
    <article className="flex gap-3 border-b border-line py-4" aria-label={t('tweet.by', { name: tweet.owner.fullName })}>
      <Link to={channelHref} className="shrink-0 self-start rounded-full" aria-label={tweet.owner.fullName}>
        <Avatar src={tweet.owner.avatar?.url} fullName={tweet.owner.fullName} size={44} />
      </Link>
      <div className="min-w-0 flex-1">
        <div className="flex items-start justify-between gap-2">
          {/* One line on a phone: the name and handle give way (truncated), the age never breaks. */}
          <p className="flex min-w-0 items-baseline gap-1 text-sm">
            <Link to={channelHref} className="truncate font-semibold hover:underline">
              {tweet.owner.fullName}
            </Link>
            <span className="min-w-0 truncate text-fg-muted">@{tweet.owner.userName}</span>
            <span className="shrink-0 whitespace-nowrap text-fg-muted">
              ·{' '}
              {linkToDetail ? (
                <Link to={paths.tweet.getHref(tweet._id)} className="hover:underline">
                  {formatRelative(tweet.createdAt)}
                </Link>
              ) : (
                formatRelative(tweet.createdAt)
              )}
              {edited && ' (edited)'}
            </span>
            {tweet.state === 'held' && <HeldBadge />}
          </p>
          {/* The 32 px menu button overhangs the 20 px line instead of making the row taller. */}
          {menu && <div className="-my-1.5 shrink-0">{menu}</div>}
        </div>
        <div className="mt-1">{body ?? <ExpandableText text={tweet.content} />}</div>
        {notice}
        {tweet.image && <img src={tweet.image.url} alt={t('tweet.image')} className="mt-3 max-h-96 rounded-xl border border-line object-contain" loading="lazy" />}
        <div className="mt-2 flex items-center gap-2">
          <LikeDislike entityType="tweet" entityId={tweet._id} initial={tweet} />
          {linkToDetail && (
            <Link to={paths.tweet.getHref(tweet._id)} className="flex h-8 items-center gap-1.5 rounded-full px-2.5 text-sm hover:bg-surface-subtle" aria-label={t('tweet.commentsOpen', { comments: plural(tweet.comments, 'count.comments') })}>
              <MessageSquare className="size-4" aria-hidden /> <span aria-hidden>{formatCount(tweet.comments)}</span>
            </Link>
          )}
        </div>
      </div>
    </article>
  );
}
