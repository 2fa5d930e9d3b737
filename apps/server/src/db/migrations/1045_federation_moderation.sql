-- Moderation across servers (issue #35).

-- A channel owner's blocks of remote accounts: their Notes on the channel's videos are not kept.
CREATE TABLE channel_remote_blocks (
  channel_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  actor_id uuid NOT NULL REFERENCES remote_actors(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (channel_id, actor_id)
);

-- A report may come from a remote actor (an incoming Flag): then reporter_actor_id, not reporter_id.
ALTER TABLE reports ALTER COLUMN reporter_id DROP NOT NULL;
ALTER TABLE reports ADD COLUMN reporter_actor_id uuid REFERENCES remote_actors(id) ON DELETE CASCADE;
ALTER TABLE reports ADD CONSTRAINT reports_one_reporter CHECK ((reporter_id IS NULL) <> (reporter_actor_id IS NULL));
CREATE UNIQUE INDEX reports_one_open_remote ON reports (reporter_actor_id, target_kind, target_id) WHERE state = 'open' AND reporter_actor_id IS NOT NULL;

-- Our users' reports forwarded to other servers as Flag: one per user and remote object.
CREATE TABLE federation_flags (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  object_uri text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, object_uri)
);
