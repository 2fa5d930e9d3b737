-- Lives (issue 36, ADR 024). The stream key is stored as its SHA-256 only (a random 256-bit secret
-- needs no slow hash). `session_id` names the current or last session: its HLS files live under
-- lives/{id}/{session_id}/ in the storage. A one-off live ends for good; a permanent one waits again.
CREATE TABLE lives (
  id uuid PRIMARY KEY,
  owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  privacy text NOT NULL DEFAULT 'public' CHECK (privacy IN ('public', 'unlisted', 'private')),
  permanent boolean NOT NULL DEFAULT false,
  save_replay boolean NOT NULL DEFAULT false,
  latency_mode text NOT NULL DEFAULT 'normal' CHECK (latency_mode IN ('normal', 'low')),
  key_hash text NOT NULL,
  state text NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'live', 'ended')),
  session_id uuid,
  started_at timestamptz,
  ended_at timestamptz,
  -- Written every few seconds by the ingest holding the session: a live whose worker died stops
  -- counting as on air once this is stale (see STALE_SESSION_MS).
  heartbeat_at timestamptz,
  replay_video_id uuid REFERENCES videos(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lives_owner_idx ON lives (owner_id, created_at DESC);
CREATE INDEX lives_on_air_idx ON lives (owner_id) WHERE state = 'live';
