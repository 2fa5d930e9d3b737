import { useQuery } from '@tanstack/react-query';
import { Globe } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link, useParams } from 'react-router';
import { FederatedThread } from '@/components/media/federated-thread.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { VideoPlayer } from '@/features/videos/components/video-player.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { htmlToText, remoteVideoOptions } from '@/lib/federation.ts';
import { formatRelative } from '@/lib/format.ts';
import { useStoredUser } from '@/lib/session.ts';
import { t } from '@/lib/i18n/i18n.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

// Only for logged-in viewers, off the page's first load (as on our watch page).
const ReportMenu = lazy(() => import('@/components/moderation/report-dialog.tsx').then((m) => ({ default: m.ReportMenu })));

/**
 * A video of another server (issue #35): our player, its HLS fetched from its origin (the CSP allows
 * the origins of the followed channels' media), with where it comes from and a link to the original.
 */
export default function RemoteWatchRoute() {
  const { videoId = '' } = useParams();
  const q = useQuery(remoteVideoOptions(videoId));
  const me = useStoredUser();
  useDocumentTitle(q.data?.title ?? t('federation.remoteVideo'));
  if (q.isPending) return <Spinner label={t('federation.loadingVideo')} />;
  if (q.isError)
    return (
      <p role="alert" className="p-6 text-sm text-danger">
        {errorMessage(q.error)}
      </p>
    );
  const video = q.data;
  return (
    <div className="mx-auto max-w-5xl sm:px-4 sm:py-4">
      {video.hlsUrl ? (
        <VideoPlayer videoId={video._id} src={video.hlsUrl} poster={video.thumbnail?.url} duration={video.duration} title={video.title} />
      ) : (
        <div className="flex aspect-video w-full items-center justify-center bg-media p-6 text-center text-on-media sm:rounded-xl" role="status">
          {t('federation.playOnOrigin')}
        </div>
      )}
      <div className="px-4 py-3 sm:px-0">
        <h1 className="text-xl font-bold [overflow-wrap:anywhere]">{video.title}</h1>
        <p className="mt-1 text-sm text-fg-muted">
          <Link to={paths.remoteChannel.getHref(video.channel._id)} className="font-medium text-fg hover:underline">
            {video.channel.name}
          </Link>
          {' · '}
          {formatRelative(video.publishedAt)}
        </p>
        <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-fg-muted">
          <span className="flex items-center gap-1">
            <Globe className="size-4" aria-hidden />
            {t('federation.fromHost', { host: video.fromHost })}
          </span>
          <a href={video.originalUrl} rel="noopener noreferrer nofollow" className="text-link hover:underline">
            {t('federation.openOriginal', { host: video.fromHost })}
          </a>
          {me && (
            <Suspense fallback={null}>
              <ReportMenu kind="video" id={video._id} label={t('watch.moreActions')} remote />
            </Suspense>
          )}
        </div>
        {/* The server keeps the description as sanitised HTML (as PeerTube sends it): shown as text. */}
        {video.description && <p className="mt-3 text-sm whitespace-pre-line [overflow-wrap:anywhere]">{htmlToText(video.description)}</p>}
        <FederatedThread videoId={video._id} remote />
      </div>
    </div>
  );
}
