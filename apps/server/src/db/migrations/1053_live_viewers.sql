-- Who is watching a live (issue 36): one row per viewer and live, its time refreshed while the
-- viewer's player keeps asking for the playlist. `viewer` is a keyed hash of the viewer's address
-- and browser (never the address itself); rows older than a minute are deleted by the ingest.
CREATE TABLE live_viewers (
  live_id uuid NOT NULL REFERENCES lives (id) ON DELETE CASCADE,
  viewer text NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (live_id, viewer)
);
