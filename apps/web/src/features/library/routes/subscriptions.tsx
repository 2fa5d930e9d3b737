import { useQuery } from '@tanstack/react-query';
import { Clapperboard } from 'lucide-react';
import { MediaGrid } from '@/components/media/media-grid.tsx';
import { RemoteVideoCard } from '@/components/media/remote-video-card.tsx';
import { remoteFeedOptions } from '@/lib/federation.ts';
import { useStoredUser } from '@/lib/session.ts';
import type { VideoSummary } from '@/components/media/types.ts';
import { sources } from '../api/library-api.ts';
import { VideoListPage } from '../components/video-list-page.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

export default function SubscriptionsRoute() {
  useDocumentTitle(t('nav.subscriptions'));
  const user = useStoredUser();
  return (
    <>
    <VideoListPage<VideoSummary>
      title={t('nav.subscriptions')}
      source={sources.subscriptions}
      toVideo={(v) => v}
      loginMessage={t('library.subsLogin')}
      empty={{ title: t('home.empty'), text: t('library.subsEmptyText') }}
      signIn={{ icon: Clapperboard, title: t('library.subsSignInTitle'), text: t('library.subsSignInText') }}
      redirectOnError
      from="subscriptions"
    />
    {user && <RemoteVideos />}
    </>
  );
}

/** Videos of the channels of other servers the user follows (issue #35): shown only when there are some. */
function RemoteVideos() {
  const q = useQuery(remoteFeedOptions());
  if (!q.data?.length) return null;
  return (
    <section className="mx-auto max-w-7xl px-4 pb-6">
      <h2 className="mb-4 text-xl font-bold">{t('federation.fromOtherServers')}</h2>
      <MediaGrid label={t('federation.fromOtherServers')}>
        {q.data.map((v) => (
          <li key={v._id} className="w-full">
            <RemoteVideoCard video={v} headingLevel={3} />
          </li>
        ))}
      </MediaGrid>
    </section>
  );
}
