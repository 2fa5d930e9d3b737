import type { VideoSummary } from '@/components/media/types.ts';
import { sources } from '../api/library-api.ts';
import { VideoListPage } from '../components/video-list-page.tsx';

export default function HistoryRoute() {
  return (
    <VideoListPage<VideoSummary>
      title="Watch history"
      source={sources.history}
      toVideo={(v) => v}
      loginMessage="Please login to view your watch history."
      empty={{ title: 'No Watch History', text: "You haven't watched any video." }}
    />
  );
}
