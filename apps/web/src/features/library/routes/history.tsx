import { History } from 'lucide-react';
import type { VideoSummary } from '@/components/media/types.ts';
import { sources } from '../api/library-api.ts';
import { VideoListPage } from '../components/video-list-page.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

export default function HistoryRoute() {
  useDocumentTitle(t('nav.history'));
  return (
    <VideoListPage<VideoSummary>
      title={t('library.watchHistory')}
      source={sources.history}
      toVideo={(v) => v}
      loginMessage={t('library.historyLogin')}
      signIn={{ icon: History, title: t('library.historySignInTitle'), text: t('library.historySignInText') }}
      empty={{ title: t('library.historyEmpty'), text: t('library.historyEmptyText') }}
    />
  );
}
