import type { VideoSummary } from '@/components/media/types.ts';
import { sources } from '../api/library-api.ts';
import { VideoListPage } from '../components/video-list-page.tsx';

export default function LikedVideosRoute() {
  return (
    <VideoListPage<{ video: VideoSummary }>
      title="Liked videos"
      source={sources.liked}
      toVideo={(entry) => entry.video}
      loginMessage="Please login to view your liked videos."
      empty={{ title: 'No videos found', text: "You haven't liked any video." }}
    />
  );
}
