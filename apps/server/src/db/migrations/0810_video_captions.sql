-- Captions (issue #13): one WebVTT file per video and language, stored under the video's media
-- prefix (`videos/{id}/captions/`), so it is served and deleted like the video's other media.
-- `body` is the cues' plain text: the search looks into it (weight D, below title and description).
CREATE TABLE video_captions (
  video_id uuid NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
  lang text NOT NULL,
  label text NOT NULL,
  storage_key text NOT NULL,
  bytes integer NOT NULL,
  body text NOT NULL DEFAULT '',
  search tsvector GENERATED ALWAYS AS (setweight(to_tsvector('english', body), 'D')) STORED,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (video_id, lang)
);
CREATE INDEX video_captions_search ON video_captions USING gin (search);
