import type { TrafficSource } from '@glimpse/contract';
import clsx from 'clsx';
import { Link } from 'react-router';
import { Avatar } from '@/components/ui/avatar.tsx';
import { paths } from '@/config/paths.ts';
import { formatDuration, formatRelative, plural } from '@/lib/format.ts';
import { Thumbnail } from './thumbnail.tsx';
import type { VideoSummary } from './types.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** The owner's lists say what others cannot see yet: processing, failed, unlisted, unpublished. */
function stateBadge(video: VideoSummary): string | null {
  if (video.status === 'processing') return t('status.processing');
  if (video.status === 'failed') return t('status.failed');
  if (video.privacy === 'unlisted') return t('status.unlisted');
  return video.isPublished ? null : t('status.unpublished');
}

/**
 * The one video card (docs/design.md). 'card': thumbnail above avatar, title, channel and views
 * (home, channel and personal grids); 'row': thumbnail beside the text; 'responsive': a card on
 * narrow screens, a wide row from 640 px (search); 'compact': small row (similar videos).
 * `from`: the page it is on, for the watch page's analytics (router state). The title is a
 * level-2 heading (the lists sit under the page's h1), `headingLevel` 3 under a section's h2.
 */
export function VideoCard({
  video,
  layout = 'card',
  listId,
  from,
  headingLevel = 2,
}: {
  video: VideoSummary;
  layout?: 'card' | 'row' | 'responsive' | 'compact';
  listId?: string;
  from?: TrafficSource;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 3 ? 'h3' : 'h2';
  const href = paths.video.getHref(video._id, listId);
  const state = from && { source: from };
  const channelHref = paths.channel.videos.getHref(video.owner.userName);
  const meta = `${plural(video.views, 'count.views')} · ${formatRelative(video.createdAt)}`;
  const row = layout === 'row' || layout === 'compact';
  const responsive = layout === 'responsive';
  const badge = stateBadge(video);
  return (
    <article
      className={clsx(
        'group relative flex gap-3',
        layout === 'card' && 'w-full max-w-[400px] flex-col',
        responsive && 'flex-col sm:flex-row',
      )}
    >
      <Link
        to={href}
        state={state}
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
        <Thumbnail src={video.thumbnail?.url} badge={formatDuration(video.duration)}>
          {badge && <span className="absolute left-1.5 top-1.5 rounded bg-media/80 px-1.5 py-0.5 text-xs font-medium text-on-media">{badge}</span>}
        </Thumbnail>
      </Link>
      <div className={clsx('flex min-w-0 gap-3', (row || responsive) && 'flex-1')}>
        {!row && (
          <Link to={channelHref} className={clsx('shrink-0 self-start rounded-full', responsive && 'sm:hidden')} aria-label={video.owner.fullName}>
            <Avatar src={video.owner.avatar?.url} fullName={video.owner.fullName} size={36} />
          </Link>
        )}
        <div className="min-w-0 flex-1">
          <Heading className={clsx('font-semibold leading-snug', layout === 'compact' ? 'text-sm' : 'text-base')}>
            {/* A block link: a two-line title gets one focus ring around both lines, not two pieces. */}
            <Link to={href} state={state} className="line-clamp-2 rounded hover:underline">
              {video.title}
            </Link>
          </Heading>
          {badge && <p className="sr-only">{badge}</p>}
          {(row || responsive) && <p className={clsx('mt-1 text-xs text-fg-muted', responsive && 'hidden sm:block')}>{meta}</p>}
          <Link to={channelHref} className="mt-1 flex items-center gap-2 rounded text-sm text-fg-muted hover:text-fg">
            {layout === 'row' || responsive ? (
              <Avatar src={video.owner.avatar?.url} fullName={video.owner.fullName} size={24} className={clsx(responsive && 'hidden sm:block')} />
            ) : null}
            <span className="truncate">{video.owner.fullName}</span>
          </Link>
          {(!row || responsive) && <p className={clsx('text-sm text-fg-muted', responsive && 'sm:hidden')}>{meta}</p>}
          {layout === 'row' || responsive ? <p className="mt-2 line-clamp-2 text-xs text-fg-muted max-sm:hidden">{video.description}</p> : null}
        </div>
      </div>
    </article>
  );
}
