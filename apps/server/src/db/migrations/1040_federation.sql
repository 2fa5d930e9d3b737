-- Federation over ActivityPub (issue #35, ADR 023, ARCHITECTURE §14).

-- The RSA key pair of each local actor: a channel (its user's id) or the instance actor ('instance').
-- Made on first use; the private key never leaves the server.
CREATE TABLE federation_keys (
  id text PRIMARY KEY,
  user_id uuid UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  public_key_pem text NOT NULL,
  private_key_pem text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Remote actors (channels and accounts of other servers) we fetched: what we need to show, verify
-- their signatures and deliver to them. Text fields are sanitised before they are stored.
CREATE TABLE remote_actors (
  id uuid PRIMARY KEY,
  uri text NOT NULL UNIQUE,
  host text NOT NULL,
  type text NOT NULL,
  preferred_username text NOT NULL,
  name text NOT NULL,
  summary text NOT NULL DEFAULT '',
  url text,
  icon_url text,
  inbox text NOT NULL,
  shared_inbox text,
  public_key_id text NOT NULL,
  public_key_pem text NOT NULL,
  fetched_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX remote_actors_handle ON remote_actors (lower(preferred_username), host);
CREATE INDEX remote_actors_key ON remote_actors (public_key_id);

-- Remote actors following a local channel (they count in its subscriber_count).
CREATE TABLE remote_followers (
  channel_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  actor_id uuid NOT NULL REFERENCES remote_actors(id) ON DELETE CASCADE,
  follow_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (channel_id, actor_id)
);
CREATE INDEX remote_followers_actor ON remote_followers (actor_id);

-- Local users following a remote channel: pending until its server sends Accept.
CREATE TABLE remote_follows (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  actor_id uuid NOT NULL REFERENCES remote_actors(id) ON DELETE CASCADE,
  follow_id text NOT NULL UNIQUE,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'accepted')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, actor_id)
);
CREATE INDEX remote_follows_actor ON remote_follows (actor_id);

-- Remote videos: metadata only (they play from their origin's HLS).
CREATE TABLE remote_videos (
  id uuid PRIMARY KEY,
  uri text NOT NULL UNIQUE,
  actor_id uuid NOT NULL REFERENCES remote_actors(id) ON DELETE CASCADE,
  name text NOT NULL,
  content text NOT NULL DEFAULT '',
  duration double precision NOT NULL DEFAULT 0,
  page_url text NOT NULL,
  thumbnail_url text,
  hls_url text,
  mp4_url text,
  published_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX remote_videos_actor ON remote_videos (actor_id, published_at DESC);

-- Local videos we sent out as Create: a later change that unlists them sends Delete. No foreign key
-- on the video: the row outlives a deleted video until its Delete is queued.
CREATE TABLE federated_videos (
  video_id uuid PRIMARY KEY,
  owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  sent_at timestamptz NOT NULL DEFAULT now()
);

-- Ids of incoming activities already handled (a replay is refused); pruned after a week.
CREATE TABLE inbox_seen (
  activity_id text PRIMARY KEY,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX inbox_seen_received ON inbox_seen (received_at);

-- Delivery health per remote host: after repeated failures its deliveries wait (a dead host slows no one else).
CREATE TABLE federation_hosts (
  host text PRIMARY KEY,
  failures integer NOT NULL DEFAULT 0,
  paused_until timestamptz
);
