import type { VideoSummary } from '@/components/media/types.ts';
import { sources } from '../api/library-api.ts';
import { VideoListPage } from '../components/video-list-page.tsx';

export default function SubscriptionsRoute() {
  return (
    <VideoListPage<VideoSummary>
      title="Subscriptions"
      source={sources.subscriptions}
      toVideo={(v) => v}
      loginMessage="Please login to view your subscriptions."
      empty={{ title: 'No videos found', text: 'No videos found of any Subscribed channels.' }}
      redirectOnError
    />
  );
}
