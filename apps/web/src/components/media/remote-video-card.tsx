import type { RemoteVideo } from '@glimpse/contract';
import { Globe } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { formatDuration, formatRelative } from '@/lib/format.ts';
import { t } from '@/lib/i18n/i18n.ts';

/**
 * A video of another server: its thumbnail and title open it here (played from its origin: its
 * media is not copied), with a "from host" label and a link to the remote channel's page here.
 */
export function RemoteVideoCard({ video, headingLevel = 2 }: { video: RemoteVideo; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 3 ? 'h3' : 'h2';
  return (
    <article className="flex w-full max-w-[400px] flex-col gap-2">
      <Link to={paths.remoteVideo.getHref(video._id)} className="relative block overflow-hidden rounded-xl bg-surface-subtle" tabIndex={-1} aria-hidden>
        {video.thumbnail ? (
          <img src={video.thumbnail.url} alt="" loading="lazy" className="aspect-video w-full object-cover" />
        ) : (
          <div className="aspect-video w-full" />
        )}
        <span className="absolute right-2 bottom-2 rounded bg-inverse/80 px-1.5 py-0.5 text-xs font-medium text-on-inverse">{formatDuration(video.duration)}</span>
      </Link>
      <Heading className="line-clamp-2 text-sm font-semibold [overflow-wrap:anywhere]">
        <Link to={paths.remoteVideo.getHref(video._id)} className="hover:underline">
          {video.title}
        </Link>
      </Heading>
      <p className="text-xs text-fg-muted">
        <Link to={paths.remoteChannel.getHref(video.channel._id)} className="hover:underline">
          {video.channel.name}
        </Link>
        {' · '}
        {formatRelative(video.publishedAt)}
      </p>
      <p className="flex items-center gap-1 text-xs text-fg-muted">
        <Globe className="size-3.5" aria-hidden />
        {t('federation.fromHost', { host: video.fromHost })}
      </p>
    </article>
  );
}
