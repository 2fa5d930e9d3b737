-- Shares across servers (issue #35): a remote actor's Announce of one of our public videos, one
-- per actor and video (an Undo removes it). Kept for a share count; nothing shows it yet.
CREATE TABLE remote_shares (
  video_id uuid NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
  actor_id uuid NOT NULL REFERENCES remote_actors(id) ON DELETE CASCADE,
  activity_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (video_id, actor_id)
);
CREATE INDEX remote_shares_actor ON remote_shares (actor_id, activity_id);
