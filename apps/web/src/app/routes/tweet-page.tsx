import { CommentSection } from '@/features/comments/components/comment-section.tsx';
import { TweetDetail } from '@/features/tweets/components/tweet-detail.tsx';

/** /tweet/{tweetId}: the tweet with its threaded comments (two features, so composed here). */
export default function TweetPage() {
  return <TweetDetail comments={({ tweetId, count, owner }) => <CommentSection entityType="tweet" entityId={tweetId} count={count} channel={owner} />} />;
}
