-- A live's thumbnail counts toward its owner's stored bytes, like a video's. NULL: a thumbnail
-- stored before this migration, whose size SQL cannot know; the worker's housekeeping measures it
-- in storage (quota/storage-measure.ts) and counts it.
ALTER TABLE lives ADD COLUMN thumbnail_bytes bigint DEFAULT 0;
UPDATE lives SET thumbnail_bytes = NULL WHERE thumbnail_key IS NOT NULL;
