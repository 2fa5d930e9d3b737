import { EmptyState } from '@/components/ui/empty-state.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { MediaGrid } from '@/components/media/media-grid.tsx';
import { VideoCard } from '@/components/media/video-card.tsx';
import { useHomeVideos } from '../api/videos-api.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

export default function HomeRoute() {
  useDocumentTitle(t('nav.home'));
  const q = useHomeVideos();
  const videos = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="px-4 py-6">
      <h1 className="sr-only">{t('home.heading')}</h1>
      {q.isPending ? (
        <Spinner label={t('home.loading')} />
      ) : videos.length === 0 ? (
        <EmptyState kind="video" title={t('home.empty')} text={q.isError ? t('home.error') : t('home.nothing')} />
      ) : (
        <>
          <MediaGrid label={t('channel.videos')}>
            {videos.map((v) => (
              <li key={v._id}>
                <VideoCard video={v} from="home" />
              </li>
            ))}
          </MediaGrid>
          <InfiniteSentinel hasMore={q.hasNextPage && !q.isError} loading={q.isFetchingNextPage} onVisible={() => void q.fetchNextPage()} />
        </>
      )}
    </div>
  );
}
