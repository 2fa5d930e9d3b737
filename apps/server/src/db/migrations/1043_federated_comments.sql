-- Comments across servers (issue #35): ActivityPub Notes replying to a video or to another Note.
-- A thread is on one of our videos (local_video_id) or on a remote video we keep (remote_video_id);
-- each comment is by a local user or by a remote actor. `in_reply_to` is the URI answered (the
-- video's or a comment's), which keeps threads. Remote text is sanitised before it is stored;
-- watched words hold a comment (shown to the video's owner only) as they hold local ones.
CREATE TABLE federated_comments (
  id uuid PRIMARY KEY,
  uri text NOT NULL UNIQUE,
  local_video_id uuid REFERENCES videos(id) ON DELETE CASCADE,
  remote_video_id uuid REFERENCES remote_videos(id) ON DELETE CASCADE,
  author_user_id uuid REFERENCES users(id) ON DELETE CASCADE,
  author_actor_id uuid REFERENCES remote_actors(id) ON DELETE CASCADE,
  in_reply_to text NOT NULL,
  content text NOT NULL,
  review_state text NOT NULL DEFAULT 'published' CHECK (review_state IN ('published', 'held')),
  published_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((local_video_id IS NULL) <> (remote_video_id IS NULL)),
  CHECK ((author_user_id IS NULL) <> (author_actor_id IS NULL))
);
CREATE INDEX federated_comments_local_video ON federated_comments (local_video_id, published_at) WHERE local_video_id IS NOT NULL;
CREATE INDEX federated_comments_remote_video ON federated_comments (remote_video_id, published_at) WHERE remote_video_id IS NOT NULL;
