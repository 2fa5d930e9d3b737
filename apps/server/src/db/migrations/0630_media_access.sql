-- Media access (ADR 009).

-- Public media URLs carry the video's media token; a new token is drawn whenever the video is
-- published or unpublished, so a hidden video's old URLs stop working. Each existing row gets its
-- own token (a volatile default is evaluated per row).
ALTER TABLE videos ADD COLUMN media_token text NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', '');

-- Storage renames still to do, applied at boot by every process (storage/storage-moves.ts): SQL
-- cannot move files, so a migration that changes keys records the move here.
CREATE TABLE storage_moves (
  from_key text PRIMARY KEY,
  to_key text NOT NULL
);

-- Originals leave the public media folder for their private one.
INSERT INTO storage_moves (from_key, to_key)
  SELECT source_key, 'originals/' || id || '/source.mp4' FROM videos WHERE source_key LIKE 'videos/%';
UPDATE videos SET source_key = 'originals/' || id || '/source.mp4' WHERE source_key LIKE 'videos/%';
