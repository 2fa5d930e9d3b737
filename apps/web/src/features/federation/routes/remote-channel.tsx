import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Globe } from 'lucide-react';
import { useParams } from 'react-router';
import { MediaGrid } from '@/components/media/media-grid.tsx';
import { RemoteVideoCard } from '@/components/media/remote-video-card.tsx';
import { Avatar } from '@/components/ui/avatar.tsx';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { followRemote, remoteChannelOptions, unfollowRemote } from '@/lib/federation.ts';
import { t } from '@/lib/i18n/i18n.ts';
import { useStoredUser } from '@/lib/session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** A channel of another server: its name, handle and host, follow state and the videos this server received. */
export default function RemoteChannelRoute() {
  const { actorId = '' } = useParams();
  const user = useStoredUser();
  const qc = useQueryClient();
  const q = useQuery(remoteChannelOptions(actorId));
  useDocumentTitle(q.data?.channel.name ?? t('federation.remoteChannel'));
  const toggle = useMutation({
    mutationFn: async () => {
      const c = q.data!.channel;
      if (c.following === 'none') await followRemote(c.handle);
      else await unfollowRemote(c._id);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: remoteChannelOptions(actorId).queryKey }),
  });

  if (q.isPending) return <Spinner label={t('federation.loading')} />;
  if (q.isError)
    return (
      <p role="alert" className="p-6 text-sm text-danger">
        {errorMessage(q.error)}
      </p>
    );
  const { channel, videos } = q.data;
  const label = channel.following === 'accepted' ? t('federation.unfollow') : channel.following === 'pending' ? t('federation.pending') : t('federation.follow');
  return (
    <div className="mx-auto max-w-7xl px-4 py-6">
      <header className="mb-6 flex flex-wrap items-center gap-4">
        <Avatar src={channel.avatar?.url ?? null} fullName={channel.name} size={64} />
        <div className="min-w-0 flex-1">
          <h1 className="text-2xl font-bold [overflow-wrap:anywhere]">{channel.name}</h1>
          <p className="text-sm text-fg-muted [overflow-wrap:anywhere]">{channel.handle}</p>
          <p className="flex items-center gap-1 text-xs text-fg-muted">
            <Globe className="size-3.5" aria-hidden />
            {channel.url ? (
              <a href={channel.url} rel="noopener noreferrer nofollow" className="hover:underline">
                {t('federation.fromHost', { host: channel.host })}
              </a>
            ) : (
              t('federation.fromHost', { host: channel.host })
            )}
          </p>
        </div>
        {user && (
          <Button variant={channel.following === 'none' ? 'primary' : 'secondary'} loading={toggle.isPending} onClick={() => toggle.mutate()}>
            {label}
          </Button>
        )}
      </header>
      {toggle.isError && (
        <p role="alert" className="mb-4 text-sm text-danger">
          {errorMessage(toggle.error)}
        </p>
      )}
      {videos.length === 0 ? (
        <EmptyState kind="video" title={t('federation.noVideos')} text={t('federation.noVideosText')} />
      ) : (
        <MediaGrid label={t('federation.videosOf', { name: channel.name })}>
          {videos.map((v) => (
            <li key={v._id} className="w-full">
              <RemoteVideoCard video={v} />
            </li>
          ))}
        </MediaGrid>
      )}
    </div>
  );
}
