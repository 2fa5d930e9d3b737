import { ListVideo } from 'lucide-react';
import { Link } from 'react-router';
import { Thumbnail } from '@/components/media/thumbnail.tsx';
import { Avatar } from '@/components/ui/avatar.tsx';
import { paths } from '@/config/paths.ts';
import { formatRelative, plural } from '@/lib/format.ts';
import type { Channel, PlaylistSummary } from '@/types/api.ts';
import { t } from '@/lib/i18n/i18n.ts';

export function PlaylistRow({ playlist }: { playlist: PlaylistSummary }) {
  const href = playlist.videoId ? paths.video.getHref(playlist.videoId, playlist._id) : undefined;
  const body = (
    <>
      <div className="w-full shrink-0 sm:w-[45%] sm:max-w-[360px]">
        <Thumbnail src={playlist.thumbnail?.url}>
          <span className="absolute inset-y-0 right-0 flex w-2/5 flex-col items-center justify-center gap-1 bg-media/70 text-sm font-semibold text-on-media">
            <ListVideo className="size-5" aria-hidden />
            {plural(playlist.noOfVideos, 'count.videos')}
          </span>
        </Thumbnail>
      </div>
      <div className="min-w-0">
        <h2 className="line-clamp-2 font-semibold">{playlist.name}</h2>
        <p className="mt-1 text-sm text-fg-muted">{playlist.owner.fullName} · {t('filter.playlist')}</p>
        <p className="text-xs text-fg-muted">{t('search.updated', { time: formatRelative(playlist.updatedAt) })}</p>
        {href && <p className="mt-2 text-xs font-semibold uppercase text-fg-muted">{t('search.viewPlaylist')}</p>}
      </div>
    </>
  );
  const cls = 'flex flex-col gap-3 rounded-xl sm:flex-row';
  return <article>{href ? <Link to={href} state={{ source: 'search' }} className={cls}>{body}</Link> : <div className={cls}>{body}</div>}</article>;
}

export function ChannelRow({ channel }: { channel: Channel }) {
  return (
    <article>
      {/* The avatar beside the name at every width (a thumbnail-wide column left a gap on wide screens). */}
      <Link to={paths.channel.videos.getHref(channel.userName)} className="flex items-center gap-4 rounded-xl p-2 hover:bg-surface-muted">
        <Avatar src={channel.avatar?.url} fullName={channel.fullName} size={96} className="shrink-0 max-sm:size-16!" />
        <div className="min-w-0 [overflow-wrap:anywhere]">
          <h2 className="text-lg font-semibold">{channel.fullName}</h2>
          <p className="text-sm text-fg-muted">
            @{channel.userName} · {plural(channel.subscriberCount, 'count.subscribers')} · {plural(channel.videoCount, 'count.videos')}
          </p>
        </div>
      </Link>
    </article>
  );
}
