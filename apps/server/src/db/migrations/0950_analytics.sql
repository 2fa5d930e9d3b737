-- Creator analytics (ARCHITECTURE §11, docs/analytics.md). Raw rows are append-only and expire after
-- ANALYTICS_RAW_DAYS; the worker rolls whole hours into the aggregates below, which are all the
-- dashboard reads.

-- One row per player heartbeat. No foreign key: ingestion is the hot path (the rollup joins videos,
-- so rows of a deleted video simply drop out). `viewer_key` is an HMAC of the account id or of
-- IP + user agent under a salt that changes every UTC day: never the IP itself.
CREATE TABLE watch_events (
  video_id uuid NOT NULL,
  viewer_key bytea NOT NULL,
  session_id uuid NOT NULL,
  source text NOT NULL,
  -- Whole seconds of the video played since the previous heartbeat, distinct, within its duration.
  positions integer[] NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
-- Rows arrive in time order: a BRIN index finds an hour's rows at almost no cost per insert.
CREATE INDEX watch_events_at ON watch_events USING brin (at);

-- Subscribe (+1) and unsubscribe (-1), written in the toggle's transaction: the subscriptions table
-- forgets an unsubscription, analytics must not.
CREATE TABLE subscription_events (
  channel_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  delta smallint NOT NULL CHECK (delta IN (1, -1)),
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscription_events_at ON subscription_events (at);

-- Likes and comments are counted by their created_at when their hour is rolled up.
CREATE INDEX likes_video_created ON likes (created_at) WHERE video_id IS NOT NULL AND value = 1;
CREATE INDEX comments_video_created ON comments (created_at) WHERE video_id IS NOT NULL;

-- `source_views[i]` counts the views whose source is trafficSources[i - 1] (contract order).
CREATE TABLE analytics_video_hourly (
  video_id uuid NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
  hour timestamptz NOT NULL,
  views integer NOT NULL,
  watch_seconds bigint NOT NULL,
  source_views integer[] NOT NULL,
  likes integer NOT NULL,
  comments integer NOT NULL,
  provisional boolean NOT NULL DEFAULT false,
  PRIMARY KEY (video_id, hour, provisional)
);

CREATE TABLE analytics_channel_hourly (
  channel_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  hour timestamptz NOT NULL,
  views integer NOT NULL,
  watch_seconds bigint NOT NULL,
  source_views integer[] NOT NULL,
  likes integer NOT NULL,
  comments integer NOT NULL,
  subscribers_gained integer NOT NULL,
  subscribers_lost integer NOT NULL,
  provisional boolean NOT NULL DEFAULT false,
  PRIMARY KEY (channel_id, hour, provisional)
);

-- Per UTC day, for the channel's top videos over a range (a year of hours per video would be too many rows).
CREATE TABLE analytics_video_daily (
  video_id uuid NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
  channel_id uuid NOT NULL,
  day date NOT NULL,
  views integer NOT NULL,
  watch_seconds bigint NOT NULL,
  provisional boolean NOT NULL DEFAULT false,
  PRIMARY KEY (video_id, day, provisional)
);
CREATE INDEX analytics_video_daily_channel ON analytics_video_daily (channel_id, day) INCLUDE (video_id, views, watch_seconds);

-- The same per UTC calendar month (`month` is its first day): top videos over a long range add up
-- its whole months here and only the days at its edges from the daily table (a year: 12 rows per video, not 365).
CREATE TABLE analytics_video_monthly (
  video_id uuid NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
  channel_id uuid NOT NULL,
  month date NOT NULL,
  views integer NOT NULL,
  watch_seconds bigint NOT NULL,
  provisional boolean NOT NULL DEFAULT false,
  PRIMARY KEY (video_id, month, provisional)
);
CREATE INDEX analytics_video_monthly_channel ON analytics_video_monthly (channel_id, month) INCLUDE (video_id, views, watch_seconds);

-- Audience retention per video and UTC day: `views` counts the day's views, `bucket_views[i]` those
-- that played some second of bucket i - 1 (buckets of `bucket_seconds`: 1 s up to 100 s, else duration / 100).
CREATE TABLE analytics_retention_daily (
  video_id uuid NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
  day date NOT NULL,
  bucket_seconds double precision NOT NULL,
  views integer NOT NULL,
  bucket_views integer[] NOT NULL,
  provisional boolean NOT NULL DEFAULT false,
  PRIMARY KEY (video_id, day, provisional)
);

-- `provisional` rows hold the hour in progress (since `rolled_until`): every rollup replaces them,
-- so a creator sees today's views within a minute; the final rows of an hour are written once it ends.
-- Everything before `rolled_until` is in the aggregates (NULL: nothing rolled yet). The rollup
-- locks this row and moves it in the transaction that writes the aggregates: two workers never
-- roll one hour twice.
CREATE TABLE analytics_rollup_state (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  rolled_until timestamptz
);
INSERT INTO analytics_rollup_state (rolled_until) VALUES (NULL);

-- Element-wise sum of two counter arrays (the shorter one padded with zeros).
CREATE FUNCTION analytics_array_add(a integer[], b integer[]) RETURNS integer[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(coalesce(x, 0) + coalesce(y, 0) ORDER BY i), '{}')
  FROM unnest(a, b) WITH ORDINALITY AS t (x, y, i)
$$;
