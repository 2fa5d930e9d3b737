-- Local comments (the comments module) sent to other servers as Notes (issue #35): one row per
-- comment whose Create went out, so an edit sends Update and a deletion or take-down sends Delete
-- (once). No key to `comments`: the row outlives a deleted comment until its Delete is queued.
-- `channel_id` is the video's owner, whose followers' servers were told.
CREATE TABLE federated_local_comments (
  comment_id uuid PRIMARY KEY,
  video_id uuid NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
  channel_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  author_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  sent_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX federated_local_comments_video ON federated_local_comments (video_id);
