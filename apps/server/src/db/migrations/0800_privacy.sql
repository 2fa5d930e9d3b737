-- Privacy per video (ARCHITECTURE §9, ADR 013): public, unlisted (watchable by its link, never
-- listed for others) or private (its owner only), and a scheduled publication time: a video with
-- publish_at is private until the publish job makes it public at that time.
-- Downloads: the owner lets viewers download the progressive mp4 (off by default).
ALTER TABLE videos
  ADD COLUMN privacy text NOT NULL DEFAULT 'private' CHECK (privacy IN ('public', 'unlisted', 'private')),
  ADD COLUMN publish_at timestamptz,
  ADD COLUMN downloads_enabled boolean NOT NULL DEFAULT false;
UPDATE videos SET privacy = CASE WHEN is_published THEN 'public' ELSE 'private' END;

-- is_published goes (one truth: privacy); the API's isPublished is privacy = 'public'. Its partial
-- indexes go with it and come back over the same rule's new column.
ALTER TABLE videos DROP COLUMN is_published;
CREATE INDEX videos_public_views ON videos (views DESC, id DESC) WHERE privacy = 'public' AND status = 'ready';
CREATE INDEX videos_public_created ON videos (created_at DESC, id DESC) WHERE privacy = 'public' AND status = 'ready';
CREATE INDEX videos_public_duration ON videos (duration) WHERE privacy = 'public' AND status = 'ready';
