-- Likes and dislikes across servers (issue #35): ActivityPub Like/Dislike, withdrawn with Undo.

-- Remote actors' ratings of our videos; they count in videos.likes and videos.dislikes.
CREATE TABLE remote_video_rates (
  video_id uuid NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
  actor_id uuid NOT NULL REFERENCES remote_actors(id) ON DELETE CASCADE,
  value smallint NOT NULL CHECK (value IN (1, -1)),
  activity_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (video_id, actor_id)
);
CREATE INDEX remote_video_rates_actor ON remote_video_rates (actor_id);

-- Our users' ratings of remote videos (what we sent, so Undo names the same activity).
CREATE TABLE remote_video_user_rates (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  remote_video_id uuid NOT NULL REFERENCES remote_videos(id) ON DELETE CASCADE,
  value smallint NOT NULL CHECK (value IN (1, -1)),
  activity_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, remote_video_id)
);
