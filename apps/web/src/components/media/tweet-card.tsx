import { MessageSquare } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '@/components/ui/avatar.tsx';
import { ExpandableText } from '@/components/ui/expandable-text.tsx';
import { LikeDislike } from '@/components/ui/like-dislike.tsx';
import { paths } from '@/config/paths.ts';
import { formatCount, formatRelative, plural } from '@/lib/format.ts';
import type { Tweet } from './types.ts';

/**
 * A tweet (spec §2, §4): author linking to their channel, text cut at 100 characters with
 * Read more / Show less, image, like/dislike and a link to the tweet page. `menu` is the
 * owner's Edit/Delete; `body` replaces the text while editing.
 */
export function TweetCard({ tweet, menu, body, linkToDetail = true }: { tweet: Tweet; menu?: ReactNode; body?: ReactNode; linkToDetail?: boolean }) {
  const channelHref = paths.channel.videos.getHref(tweet.owner.userName);
  const edited = tweet.updatedAt !== tweet.createdAt;
  return (
    <article className="flex gap-3 border-b border-zinc-200 py-4" aria-label={`Tweet by ${tweet.owner.fullName}`}>
      <Link to={channelHref} className="shrink-0 self-start rounded-full" aria-label={tweet.owner.fullName}>
        <Avatar src={tweet.owner.avatar?.url} fullName={tweet.owner.fullName} size={44} />
      </Link>
      <div className="min-w-0 flex-1">
        <div className="flex items-start justify-between gap-2">
          <p className="min-w-0 text-sm">
            <Link to={channelHref} className="font-semibold hover:underline">
              {tweet.owner.fullName}
            </Link>{' '}
            <span className="text-zinc-600">
              @{tweet.owner.userName} ·{' '}
              {linkToDetail ? (
                <Link to={paths.tweet.getHref(tweet._id)} className="hover:underline">
                  {formatRelative(tweet.createdAt)}
                </Link>
              ) : (
                formatRelative(tweet.createdAt)
              )}
              {edited && ' (edited)'}
            </span>
          </p>
          {menu}
        </div>
        <div className="mt-1">{body ?? <ExpandableText text={tweet.content} />}</div>
        {tweet.image && <img src={tweet.image.url} alt="Tweet image" className="mt-3 max-h-96 rounded-xl border border-zinc-200 object-contain" loading="lazy" />}
        <div className="mt-2 flex items-center gap-2">
          <LikeDislike entityType="tweet" entityId={tweet._id} initial={tweet} />
          {linkToDetail && (
            <Link to={paths.tweet.getHref(tweet._id)} className="flex h-8 items-center gap-1.5 rounded-full px-2.5 text-sm hover:bg-zinc-100" aria-label={`${plural(tweet.comments, 'comment')}, open tweet`}>
              <MessageSquare className="size-4" aria-hidden /> <span aria-hidden>{formatCount(tweet.comments)}</span>
            </Link>
          )}
        </div>
      </div>
    </article>
  );
}
