import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '@/components/ui/avatar.tsx';
import { paths } from '@/config/paths.ts';
import { formatDuration, formatRelative, plural } from '@/lib/format.ts';
import type { VideoSummary } from './types.ts';

/** A video card of the channel and personal-list grids: thumbnail, duration, title, channel, views, age. */
export function VideoTile({ video, showOwner = true }: { video: VideoSummary; showOwner?: boolean }) {
  const badge =
    video.status === 'processing' ? 'Processing' : video.status === 'failed' ? 'Failed' : !video.isPublished ? 'Unpublished' : null;
  return (
    <article className="flex w-full max-w-[400px] flex-col gap-2">
      {/* The title below is the link for assistive tech; the thumbnail repeats it for the pointer only. */}
      <Link to={paths.video.getHref(video._id)} tabIndex={-1} aria-hidden className="relative block aspect-video overflow-hidden rounded-xl bg-zinc-200">
        {video.thumbnail && <img src={video.thumbnail.url} alt="" className="size-full object-cover" loading="lazy" />}
        <span className="absolute bottom-1.5 right-1.5 rounded bg-black/80 px-1 text-xs font-medium text-white">{formatDuration(video.duration)}</span>
        {badge && <span className="absolute left-1.5 top-1.5 rounded bg-zinc-900/80 px-1.5 py-0.5 text-xs font-medium text-white">{badge}</span>}
      </Link>
      <div className="flex gap-3">
        {showOwner && (
          <Link to={paths.channel.videos.getHref(video.owner.userName)} className="shrink-0 rounded-full" aria-label={video.owner.fullName}>
            <Avatar src={video.owner.avatar?.url} fullName={video.owner.fullName} size={36} />
          </Link>
        )}
        <div className="min-w-0">
          <h3 className="line-clamp-2 text-sm font-semibold leading-snug">
            <Link to={paths.video.getHref(video._id)}>{video.title}</Link>
          </h3>
          {badge && <p className="sr-only">{badge}</p>}
          {showOwner && (
            <Link to={paths.channel.videos.getHref(video.owner.userName)} className="block truncate text-sm text-zinc-600 hover:text-zinc-900">
              {video.owner.fullName}
            </Link>
          )}
          <p className="text-sm text-zinc-600">
            {plural(video.views, 'view')} · {formatRelative(video.createdAt)}
          </p>
        </div>
      </div>
    </article>
  );
}

/** The 1 to 4 column grid of spec §2; children are <li> items. */
export function MediaGrid({ children, label }: { children: ReactNode; label: string }) {
  return (
    <ul aria-label={label} className="grid grid-cols-1 justify-items-center gap-x-4 gap-y-8 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-4">
      {children}
    </ul>
  );
}
