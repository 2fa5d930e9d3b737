-- Videos: resumable upload sessions, view de-duplication and full-text search.

-- One chunked upload in progress, per user and client-chosen uniqueId.
CREATE TABLE upload_sessions (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  unique_id text NOT NULL CHECK (unique_id ~ '^[A-Za-z0-9_-]{1,64}$'),
  total_chunks integer NOT NULL CHECK (total_chunks > 0),
  -- Set while the last chunk is being assembled and probed, so a retried last chunk
  -- cannot create the video twice.
  finalizing_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Last activity; sessions idle longer than UPLOAD_SESSION_TTL_HOURS are swept.
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, unique_id)
);
CREATE INDEX upload_sessions_idle ON upload_sessions (updated_at);

-- Chunks whose file is complete on disk (the row is written after the file is renamed in place).
CREATE TABLE upload_chunks (
  user_id uuid NOT NULL,
  unique_id text NOT NULL,
  chunk_number integer NOT NULL CHECK (chunk_number >= 0),
  size bigint NOT NULL CHECK (size > 0),
  PRIMARY KEY (user_id, unique_id, chunk_number),
  FOREIGN KEY (user_id, unique_id) REFERENCES upload_sessions (user_id, unique_id) ON DELETE CASCADE
);

-- A view counts once per viewer (user id or IP) per hour.
CREATE TABLE video_views (
  video_id uuid NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
  viewer_key text NOT NULL,
  counted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (video_id, viewer_key)
);
CREATE INDEX video_views_counted ON video_views (counted_at);

-- Weighted full-text document (title A, description B) and trigram index for typos.
ALTER TABLE videos ADD COLUMN search tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', description), 'B')
) STORED;
CREATE INDEX videos_search ON videos USING gin (search);
CREATE INDEX videos_title_trgm ON videos USING gin (lower(title) gin_trgm_ops);
CREATE INDEX videos_public_duration ON videos (duration) WHERE is_published AND status = 'ready';
CREATE INDEX jobs_video ON jobs ((payload ->> 'videoId'));
