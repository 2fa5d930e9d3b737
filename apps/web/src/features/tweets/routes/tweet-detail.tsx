import { TweetDetail } from '../components/tweet-detail.tsx';

/**
 * The tweet page without comments; app/routes/tweet-page.tsx (after the comments module
 * lands) composes TweetDetail with <CommentSection> and replaces this in the router.
 */
export default function TweetDetailRoute() {
  return <TweetDetail />;
}
