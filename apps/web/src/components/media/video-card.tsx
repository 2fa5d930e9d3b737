import clsx from 'clsx';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '@/components/ui/avatar.tsx';
import { paths } from '@/config/paths.ts';
import { formatDuration, formatRelative, plural } from '@/lib/format.ts';
import type { Video } from '@/types/api.ts';
import { Thumbnail } from './thumbnail.tsx';

/**
 * A video in a list. 'card': thumbnail above the text (grids); 'row': thumbnail beside
 * the text; 'responsive': a card on narrow screens, a wide row from 640 px (search);
 * 'compact': small row (side lists such as similar videos).
 */
export function VideoCard({ video, layout = 'card', listId }: { video: Video; layout?: 'card' | 'row' | 'responsive' | 'compact'; listId?: string }) {
  const href = paths.video.getHref(video._id, listId);
  const channelHref = paths.channel.videos.getHref(video.owner.userName);
  const meta = `${plural(video.views, 'view')} · ${formatRelative(video.createdAt)}`;
  const row = layout === 'row' || layout === 'compact';
  const responsive = layout === 'responsive';
  return (
    <article
      className={clsx(
        'group relative flex gap-3',
        layout === 'card' && 'mx-auto w-full max-w-[400px] flex-col',
        responsive && 'flex-col sm:flex-row',
      )}
    >
      <Link
        to={href}
        className={clsx(
          'block shrink-0 rounded-xl',
          layout === 'row' && 'w-[45%] max-w-[360px]',
          layout === 'compact' && 'w-40',
          responsive && 'w-full sm:w-[45%] sm:max-w-[360px]',
        )}
        // The title link below is the accessible one; this is a larger mouse target.
        aria-hidden
        tabIndex={-1}
      >
        <Thumbnail src={video.thumbnail?.url} badge={formatDuration(video.duration)} />
      </Link>
      <div className={clsx('flex min-w-0 gap-3', (row || responsive) && 'flex-1')}>
        {!row && (
          <Link to={channelHref} className={clsx('shrink-0 self-start rounded-full', responsive && 'sm:hidden')} aria-label={video.owner.fullName}>
            <Avatar src={video.owner.avatar?.url} fullName={video.owner.fullName} size={36} />
          </Link>
        )}
        <div className="min-w-0 flex-1">
          <h3 className={clsx('line-clamp-2 font-semibold leading-snug', layout === 'compact' ? 'text-sm' : 'text-base')}>
            <Link to={href} className="rounded hover:underline">
              {video.title}
            </Link>
          </h3>
          {(row || responsive) && <p className={clsx('mt-1 text-xs text-zinc-600', responsive && 'hidden sm:block')}>{meta}</p>}
          <Link to={channelHref} className="mt-1 flex items-center gap-2 rounded text-sm text-zinc-600 hover:text-zinc-900">
            {layout === 'row' || responsive ? (
              <Avatar src={video.owner.avatar?.url} fullName={video.owner.fullName} size={24} className={clsx(responsive && 'hidden sm:block')} />
            ) : null}
            <span className="truncate">{video.owner.fullName}</span>
          </Link>
          {(!row || responsive) && <p className={clsx('text-xs text-zinc-600', responsive && 'sm:hidden')}>{meta}</p>}
          {layout === 'row' || responsive ? <p className="mt-2 line-clamp-2 text-xs text-zinc-600 max-sm:hidden">{video.description}</p> : null}
        </div>
      </div>
    </article>
  );
}

/** 1 to 4 columns by width. */
export function VideoGrid({ children }: { children: ReactNode }) {
  return <div className="grid grid-cols-1 gap-x-4 gap-y-8 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">{children}</div>;
}
