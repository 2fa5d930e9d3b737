import { ListVideo, Play } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { formatRelative, plural } from '@/lib/format.ts';
import type { PlaylistSummary } from './types.ts';
import { t } from '@/lib/i18n/i18n.ts';

/**
 * A playlist card (spec §2): thumbnail or placeholder, video count, updated time and
 * PLAY ALL on hover, linking to its first video played from the list. `actions` is the
 * owner's menu; `title` replaces the name (inline rename).
 */
export function PlaylistTile({ playlist, actions, title }: { playlist: PlaylistSummary; actions?: ReactNode; title?: ReactNode }) {
  const href = playlist.videoId ? paths.video.getHref(playlist.videoId, playlist._id) : null;
  const cover = (
    <>
      {playlist.thumbnail ? (
        <img src={playlist.thumbnail.url} alt="" className="size-full object-cover" loading="lazy" />
      ) : (
        <span className="flex size-full items-center justify-center text-fg-subtle">
          <ListVideo className="size-12" aria-hidden />
        </span>
      )}
      <span className="absolute inset-x-0 bottom-0 flex items-center justify-between bg-media/70 px-2 py-1 text-xs font-medium text-on-media">
        <span>{plural(playlist.noOfVideos, 'count.videos')}</span>
        <ListVideo className="size-4" aria-hidden />
      </span>
      {href && (
        <span className="absolute inset-0 flex items-center justify-center gap-1 bg-media/60 text-sm font-semibold text-on-media opacity-0 transition-opacity group-hover:opacity-100 group-focus-visible:opacity-100">
          <Play className="size-4" aria-hidden /> PLAY ALL
        </span>
      )}
    </>
  );
  return (
    <article className="flex w-full max-w-[400px] flex-col gap-3">
      {href ? (
        <Link to={href} state={{ source: 'playlist' }} className="group relative block aspect-video overflow-hidden rounded-xl bg-surface-strong" aria-label={t('playlist.playAll', { name: playlist.name, videos: plural(playlist.noOfVideos, 'count.videos') })}>
          {cover}
        </Link>
      ) : (
        <div className="relative aspect-video overflow-hidden rounded-xl bg-surface-strong">{cover}</div>
      )}
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0 flex-1">
          {title ?? <h2 className="truncate text-base font-semibold leading-snug">{playlist.name}</h2>}
          <p className="text-sm text-fg-muted">{t('search.updated', { time: formatRelative(playlist.updatedAt) })}</p>
        </div>
        {actions}
      </div>
    </article>
  );
}
