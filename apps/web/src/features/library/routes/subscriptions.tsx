import { Clapperboard } from 'lucide-react';
import type { VideoSummary } from '@/components/media/types.ts';
import { sources } from '../api/library-api.ts';
import { VideoListPage } from '../components/video-list-page.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

export default function SubscriptionsRoute() {
  useDocumentTitle(t('nav.subscriptions'));
  return (
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
  );
}
