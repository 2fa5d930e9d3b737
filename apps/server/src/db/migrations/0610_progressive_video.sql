-- The progressive mp4 (at most 720p) made by the transcode job: downloads and players without HLS.
ALTER TABLE videos ADD COLUMN IF NOT EXISTS progressive_key text;
