import { CommentSection } from '@/features/comments/components/comment-section.tsx';
import { LiveWatch } from '@/features/lives/routes/live-watch.tsx';

/** A live's page: the lives feature's player and states, with the comments feature as its live chat. */
export default function LivePage() {
  return <LiveWatch chat={({ liveId }) => <CommentSection entityType="live" entityId={liveId} live />} />;
}
