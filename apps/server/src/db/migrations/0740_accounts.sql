-- Storage quotas (ARCHITECTURE §8): the bytes each video's files take, by kind, and per owner a
-- counter kept equal to the sum over their videos, written in the same transaction as the rows
-- that record the files (upload finish, transcode done, thumbnail replaced, video deleted).
-- SQL cannot know the size of files stored before this migration: their videos start at 0 bytes,
-- not measured (storage_measured false), and the worker's housekeeping measures them in storage,
-- a batch per run. Every video inserted from now on is measured as its files are written.
ALTER TABLE users ADD COLUMN storage_bytes bigint NOT NULL DEFAULT 0;

ALTER TABLE videos
  ADD COLUMN source_bytes bigint NOT NULL DEFAULT 0,
  -- everything the transcode stores: HLS ladder, storyboard, progressive mp4
  ADD COLUMN media_bytes bigint NOT NULL DEFAULT 0,
  -- the thumbnail, uploaded or the transcode's poster
  ADD COLUMN thumbnail_bytes bigint NOT NULL DEFAULT 0,
  ADD COLUMN storage_measured boolean NOT NULL DEFAULT false;
-- Existing rows took false above; new ones are measured as they are written.
ALTER TABLE videos ALTER COLUMN storage_measured SET DEFAULT true;
CREATE INDEX videos_storage_unmeasured ON videos (id) WHERE NOT storage_measured;

-- The daily quota: bytes of the uploads each account finished, kept 24 hours.
CREATE TABLE upload_bytes (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  bytes bigint NOT NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX upload_bytes_user_time ON upload_bytes (user_id, uploaded_at);
