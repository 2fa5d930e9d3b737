import { ThumbsUp } from 'lucide-react';
import type { VideoSummary } from '@/components/media/types.ts';
import { sources } from '../api/library-api.ts';
import { VideoListPage } from '../components/video-list-page.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

export default function LikedVideosRoute() {
  useDocumentTitle(t('nav.likedVideos'));
  return (
    <VideoListPage<{ video: VideoSummary }>
      title={t('nav.likedVideos')}
      source={sources.liked}
      toVideo={(entry) => entry.video}
      loginMessage={t('library.likedLogin')}
      signIn={{ icon: ThumbsUp, title: t('library.likedSignInTitle'), text: t('library.likedSignInText') }}
      empty={{ title: t('home.empty'), text: t('library.likedEmptyText') }}
    />
  );
}
